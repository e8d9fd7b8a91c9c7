package service_test

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"sync"
	"testing"
	"time"

	"citysleeps/shared/service"
	"citysleeps/shared/service/servicetest"
	"citysleeps/shared/store"
)

// maxStored is the size a stored game should stay under (issue 3: ≤ 4 KB
// throughout a 10-player game).
const maxStored = 4096

// sizeRecorder is a Store that remembers the largest state written to it.
type sizeRecorder struct {
	store.Store
	mu  sync.Mutex
	max int
}

func (r *sizeRecorder) note(n int) {
	r.mu.Lock()
	r.max = max(r.max, n)
	r.mu.Unlock()
}

func (r *sizeRecorder) Create(ctx context.Context, code string, state []byte, exp time.Time) error {
	r.note(len(state))
	return r.Store.Create(ctx, code, state, exp)
}

func (r *sizeRecorder) Update(ctx context.Context, code string, v int64, state []byte, exp time.Time) (int64, error) {
	r.note(len(state))
	return r.Store.Update(ctx, code, v, state, exp)
}

// finishedGame plays a 10-player sport game to its end with bots and returns the
// stored item and the largest state written on the way.
func finishedGame(tb testing.TB) (store.Item, int) {
	tb.Helper()
	rec := &sizeRecorder{Store: store.NewMemory()}
	svc := service.New(rec, service.WithLogger(quiet))
	g := servicetest.NewGame(tb, svc, service.CreateRequest{Preset: "sport"}, 10)
	g.Start(tb, svc)
	servicetest.PlayToEnd(tb, svc, g)
	it, err := rec.Get(context.Background(), g.Code, true)
	if err != nil {
		tb.Fatal(err)
	}
	return it, rec.max
}

func TestStoredSizeOfFinishedSportGame(t *testing.T) {
	for i := range 3 {
		it, largest := finishedGame(t)
		js, err := service.StoredJSON(it.State)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("game %d: stored %d bytes (JSON %d), item %d bytes, largest on the way %d", i, len(it.State), len(js), store.ItemSize(it), largest)
		if largest > maxStored || store.ItemSize(it) > maxStored {
			t.Errorf("game %d: stored %d bytes at most, item %d bytes; want ≤ %d", i, largest, store.ItemSize(it), maxStored)
		}
	}
}

// TestCodecDictFrozen guards the stored format: the deflate dictionary may never
// change under format 1, or stored games stop decoding.
func TestCodecDictFrozen(t *testing.T) {
	const want = "851e328696cb1224a0d9efc9e5ec3eec159d8889d19f37a2c75044f6d8e4c9e2"
	sum := sha256.Sum256(service.CodecDict)
	if got := hex.EncodeToString(sum[:]); got != want {
		t.Fatalf("codecDict hash = %s, want %s: the dictionary is part of stored format 1; add a new format instead of changing it", got, want)
	}
}

// BenchmarkStoredSize reports the stored size of a finished 10-player sport game
// (stored-B: the state attribute; item-B: the whole item as DynamoDB counts it;
// max-B: the largest state written during the game), and how the alternatives the
// codec was chosen over would do on the same JSON.
func BenchmarkStoredSize(b *testing.B) {
	it, largest := finishedGame(b)
	js, err := service.StoredJSON(it.State)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("codec", func(b *testing.B) {
		env, err := service.Decode(it.State)
		if err != nil {
			b.Fatal(err)
		}
		var out []byte
		for b.Loop() {
			if out, err = service.Encode(env); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(out)), "stored-B")
		b.ReportMetric(float64(store.ItemSize(store.Item{Code: it.Code, Version: it.Version, State: out, ExpiresAt: it.ExpiresAt})), "item-B")
		b.ReportMetric(float64(largest), "max-B")
		b.ReportMetric(float64(len(js)), "json-B")
	})
	// The alternatives reuse one writer, as the codec does, so the times compare.
	type resetter interface {
		Write([]byte) (int, error)
		Close() error
		Reset(io.Writer)
	}
	alt := func(name string, zw resetter) {
		b.Run(name, func(b *testing.B) {
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				zw.Reset(&buf)
				zw.Write(js)
				zw.Close()
			}
			b.ReportMetric(float64(buf.Len()), "stored-B")
		})
	}
	for _, l := range []struct {
		name  string
		level int
	}{{"default", flate.DefaultCompression}, {"best", flate.BestCompression}, {"speed", flate.BestSpeed}} {
		fw, _ := flate.NewWriter(io.Discard, l.level)
		alt("flate-"+l.name, fw)
		dw, _ := flate.NewWriterDict(io.Discard, l.level, service.CodecDict)
		alt("flate-dict-"+l.name, dw)
		gw, _ := gzip.NewWriterLevel(io.Discard, l.level)
		alt("gzip-"+l.name, gw)
	}
}

// BenchmarkCodec measures the stored form's encoding and decoding alone, on a
// finished 10-player sport game.
func BenchmarkCodec(b *testing.B) {
	it, _ := finishedGame(b)
	env, err := service.Decode(it.State)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := service.Encode(env); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := service.Decode(it.State); err != nil {
				b.Fatal(err)
			}
		}
	})
}

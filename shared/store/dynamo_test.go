package store_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"citysleeps/infra/harness/localdynamo"
	"citysleeps/infra/harness/localdynamo/localdynamotest"
	"citysleeps/shared/store"
	"citysleeps/shared/store/storetest"
)

var tableSeq atomic.Int64

// newDynamo returns a Dynamo store on a fresh table of the package's dynalite
// server, created from template.yaml, with its client and table name.
func newDynamo(tb testing.TB, opts ...store.DynamoOptions) (*store.Dynamo, *dynamodb.Client, string) {
	tb.Helper()
	srv := dynalite(tb)
	name := fmt.Sprintf("games-%d", tableSeq.Add(1))
	if err := srv.CreateTable(context.Background(), name); err != nil {
		tb.Fatal(err)
	}
	client := srv.Client()
	return store.NewDynamo(client, name, opts...), client, name
}

func TestDynamoConformance(t *testing.T) {
	storetest.RunConformance(t, func(t *testing.T) store.Store {
		d, _, _ := newDynamo(t)
		return d
	})
}

// TestDynamoTemplateTTL checks that the table's TTL attribute in template.yaml
// is the one the store writes expiry times to.
func TestDynamoTemplateTTL(t *testing.T) {
	if got := dynalite(t).TTLAttribute; got != store.TTLAttribute {
		t.Fatalf("template.yaml's TTL attribute is %q, the store writes %q", got, store.TTLAttribute)
	}
}

// TestDynamoRawItem checks the item's layout in the table: what DynamoDB's
// TTL and anyone reading the table see.
func TestDynamoRawItem(t *testing.T) {
	ctx := context.Background()
	d, client, table := newDynamo(t)
	exp := time.Now().Add(48 * time.Hour).Truncate(time.Second)
	if err := d.Create(ctx, "RAW", []byte{1, 2, 3}, exp); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Update(ctx, "RAW", 1, []byte{4, 5}, exp.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	out, err := client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(table),
		Key:            map[string]types.AttributeValue{"code": &types.AttributeValueMemberS{Value: "RAW"}},
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Item) != 4 {
		t.Errorf("item has %d attributes, want 4: %v", len(out.Item), out.Item)
	}
	if c, ok := out.Item["code"].(*types.AttributeValueMemberS); !ok || c.Value != "RAW" {
		t.Errorf("code = %#v, want S \"RAW\"", out.Item["code"])
	}
	if v, ok := out.Item["version"].(*types.AttributeValueMemberN); !ok || v.Value != "2" {
		t.Errorf("version = %#v, want N 2", out.Item["version"])
	}
	if s, ok := out.Item["state"].(*types.AttributeValueMemberB); !ok || string(s.Value) != "\x04\x05" {
		t.Errorf("state = %#v, want B 0x0405", out.Item["state"])
	}
	want := strconv.FormatInt(exp.Add(time.Hour).Unix(), 10)
	if e, ok := out.Item["expiresAt"].(*types.AttributeValueMemberN); !ok || e.Value != want {
		t.Errorf("expiresAt = %#v, want N %s (epoch seconds)", out.Item["expiresAt"], want)
	}
}

// capacityLog collects what a Capacity hook is told.
type capacityLog struct {
	mu    sync.Mutex
	calls []string
	read  map[string]float64
	write map[string]float64
}

func newCapacityLog() *capacityLog {
	return &capacityLog{read: map[string]float64{}, write: map[string]float64{}}
}

func (l *capacityLog) hook(op string, r, w float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, fmt.Sprintf("%s r%g w%g", op, r, w))
	l.read[op] += r
	l.write[op] += w
}

func (l *capacityLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.calls
	l.calls = nil
	return c
}

// TestDynamoCapacity checks the units passed to the Capacity hook, as
// dynalite reports them: 1 write unit per KB written, 1 read unit per 4 KB
// read consistently, half that eventually consistent.
func TestDynamoCapacity(t *testing.T) {
	ctx := context.Background()
	log := newCapacityLog()
	d, _, _ := newDynamo(t, store.DynamoOptions{Capacity: log.hook})
	exp := time.Now().Add(time.Hour)
	small, big := make([]byte, 100), make([]byte, 5000)

	step := func(name string, f func() error, want ...string) {
		t.Helper()
		err := f()
		got := log.take()
		if err != nil {
			t.Logf("%s: %v", name, err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: hook got %q, want %q", name, got, want)
		}
	}
	step("Create", func() error { return d.Create(ctx, "CAP", small, exp) }, "Create r0 w1")
	step("consistent Get", func() error { _, err := d.Get(ctx, "CAP", true); return err }, "Get r1 w0")
	step("eventual Get", func() error { _, err := d.Get(ctx, "CAP", false); return err }, "Get r0.5 w0")
	step("Update to 5000 bytes", func() error { _, err := d.Update(ctx, "CAP", 1, big, exp); return err }, "Update r0 w5")
	step("consistent Get of 5000 bytes", func() error { _, err := d.Get(ctx, "CAP", true); return err }, "Get r2 w0")
	step("Get of a missing game", func() error { _, err := d.Get(ctx, "NONE", true); return err }, "Get r1 w0")
	// Refused writes: DynamoDB reports nothing with them, so the store counts
	// what is billed: the larger of the existing (5000-byte) item and the new
	// one. dynalite returns no item with the error, so the store reads it to tell
	// a conflict from a missing game, and that read is counted too; on Create
	// the existing item is unknown there and the new one counts.
	step("conflicting Update", func() error { _, err := d.Update(ctx, "CAP", 1, small, exp); return err },
		"Update r2 w0", "Update r0 w5")
	step("Update of a missing game", func() error { _, err := d.Update(ctx, "NONE", 1, small, exp); return err },
		"Update r1 w0", "Update r0 w1")
	step("Create on a taken code", func() error { return d.Create(ctx, "CAP", small, exp) }, "Create r0 w1")
}

// TestDynamoTooLargeMessage checks that ErrTooLarge keeps DynamoDB's own words.
func TestDynamoTooLargeMessage(t *testing.T) {
	d, _, _ := newDynamo(t)
	err := d.Create(context.Background(), "BIG", make([]byte, store.MaxItemSize), time.Now().Add(time.Hour))
	if !errors.Is(err, store.ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
	t.Logf("error: %v", err)
}

func TestNewDynamoFromEnv(t *testing.T) {
	srv := dynalite(t)
	_, _, table := newDynamo(t) // a fresh table, so that -count=N passes
	ctx := context.Background()
	t.Setenv("TABLE_NAME", table)
	t.Setenv("DYNAMODB_ENDPOINT", srv.Endpoint)
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	d, err := store.NewDynamoFromEnv(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Create(ctx, "FROMENV", []byte("x"), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if it, err := d.Get(ctx, "FROMENV", false); err != nil || string(it.State) != "x" {
		t.Fatalf("Get = %+v, %v", it, err)
	}

	t.Setenv("TABLE_NAME", "")
	if _, err := store.NewDynamoFromEnv(ctx); err == nil {
		t.Error("NewDynamoFromEnv without TABLE_NAME succeeded")
	}
}

func BenchmarkDynamo(b *testing.B) {
	ctx := context.Background()
	log := newCapacityLog()
	d, _, _ := newDynamo(b, store.DynamoOptions{Capacity: log.hook})
	exp := time.Now().Add(time.Hour)
	if err := d.Create(ctx, "BENCH", benchState, exp); err != nil {
		b.Fatal(err)
	}
	// report adds the capacity consumed per op; dynalite reports it as DynamoDB would.
	report := func(b *testing.B, op string) {
		log.mu.Lock()
		defer log.mu.Unlock()
		b.ReportMetric(log.read[op]/float64(b.N), "RCU/op")
		b.ReportMetric(log.write[op]/float64(b.N), "WCU/op")
		log.read[op], log.write[op] = 0, 0
	}
	for _, consistent := range []bool{true, false} {
		b.Run(fmt.Sprintf("Get/consistent=%v", consistent), func(b *testing.B) {
			log.take()
			log.read[store.OpGet], log.write[store.OpGet] = 0, 0
			for b.Loop() {
				if _, err := d.Get(ctx, "BENCH", consistent); err != nil {
					b.Fatal(err)
				}
			}
			report(b, store.OpGet)
		})
	}
	b.Run("Update", func(b *testing.B) {
		it, err := d.Get(ctx, "BENCH", true)
		if err != nil {
			b.Fatal(err)
		}
		v := it.Version
		log.read[store.OpUpdate], log.write[store.OpUpdate] = 0, 0
		for b.Loop() {
			if v, err = d.Update(ctx, "BENCH", v, benchState, exp); err != nil {
				b.Fatal(err)
			}
		}
		report(b, store.OpUpdate)
	})
	b.Logf("item size %d bytes", store.ItemSize(store.Item{Code: "BENCH", Version: 1000, State: benchState, ExpiresAt: exp}))
}

// TestDynamoThrottleIsOneAttempt: a throttled write is ErrThrottled after one
// attempt, however the client was built (this one has the SDK's default of
// three): the caller's tries are the only ones (issue 12).
func TestDynamoThrottleIsOneAttempt(t *testing.T) {
	ctx := context.Background()
	srv := dynalite(t)
	name := fmt.Sprintf("games-%d", tableSeq.Add(1))
	if err := srv.CreateTable(ctx, name); err != nil {
		t.Fatal(err)
	}
	th := localdynamotest.NewThrottle(t, srv.Endpoint)
	d := store.NewDynamo(localdynamo.NewClient(th.Endpoint), name)
	exp := time.Now().Add(time.Hour)
	if err := d.Create(ctx, "THROT1", []byte{1}, exp); err != nil {
		t.Fatal(err)
	}
	th.On.Store(true)
	_, err := d.Update(ctx, "THROT1", 1, []byte{2}, exp)
	if !errors.Is(err, store.ErrThrottled) || errors.Is(err, store.ErrConflict) {
		t.Fatalf("a throttled update: %v", err)
	}
	if err := d.Create(ctx, "THROT2", []byte{1}, exp); !errors.Is(err, store.ErrThrottled) {
		t.Fatalf("a throttled create: %v", err)
	}
	if n := th.Throttled.Load(); n != 2 {
		t.Errorf("%d attempts for two writes, want one each", n)
	}
	if it, err := d.Get(ctx, "THROT1", true); err != nil || it.Version != 1 {
		t.Errorf("reads pass: %+v, %v", it, err)
	}
}

package store_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"citysleeps/infra/harness/localdynamo"
	"citysleeps/shared/store"
)

// fakeDynamo answers DynamoDB requests with canned responses, for the parts of
// DynamoDB's behaviour that dynalite lacks: the stored item returned with a
// ConditionalCheckFailedException, and read/write capacity in TOTAL mode.
type fakeDynamo struct {
	mu      sync.Mutex
	targets []string          // the operations asked for, in order
	answer  map[string]string // operation -> "status body"
}

func (f *fakeDynamo) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	op := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "DynamoDB_20120810.")
	f.mu.Lock()
	f.targets = append(f.targets, op)
	a, ok := f.answer[op]
	f.mu.Unlock()
	if !ok {
		a = `500 {"__type":"InternalServerError","message":"unexpected ` + op + `"}`
	}
	status, body, _ := strings.Cut(a, " ")
	code, _ := strconv.Atoi(status)
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(code)
	fmt.Fprint(w, body)
}

func newFakeDynamo(t *testing.T, answer map[string]string, opts ...store.DynamoOptions) (*store.Dynamo, *fakeDynamo) {
	f := &fakeDynamo{answer: answer}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return store.NewDynamo(localdynamo.NewClient(srv.URL), "games", opts...), f
}

// ccfWithItem is DynamoDB's answer to a refused PutItem with
// ReturnValuesOnConditionCheckFailure ALL_OLD, carrying the stored item.
func ccfWithItem(version int64, expSec int64, stateLen int) string {
	return fmt.Sprintf(`400 {"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",`+
		`"message":"The conditional request failed","Item":{"code":{"S":"FAKE"},"version":{"N":"%d"},`+
		`"expiresAt":{"N":"%d"},"state":{"B":"%s"}}}`, version, expSec, base64.StdEncoding.EncodeToString(make([]byte, stateLen)))
}

const ccfNoItem = `400 {"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException","message":"The conditional request failed"}`

func TestDynamoConflictUsesReturnedItem(t *testing.T) {
	ctx := context.Background()
	exp := time.Now().Add(time.Hour)
	var calls []string
	hook := func(op string, r, w float64) { calls = append(calls, fmt.Sprintf("%s r%g w%g", op, r, w)) }

	d, f := newFakeDynamo(t, map[string]string{"PutItem": ccfWithItem(7, exp.Unix(), 3000)}, store.DynamoOptions{Capacity: hook})
	_, err := d.Update(ctx, "FAKE", 5, []byte("x"), exp)
	if !errors.Is(err, store.ErrConflict) {
		t.Fatalf("got %v, want ErrConflict", err)
	}
	if fmt.Sprint(f.targets) != "[PutItem]" {
		t.Errorf("requests %v, want only the PutItem (the item came with the error)", f.targets)
	}
	if fmt.Sprint(calls) != "[Update r0 w3]" {
		t.Errorf("capacity %v, want [Update r0 w3] (a 3 KB item refused the write)", calls)
	}

	// The stored item has expired: the game is missing.
	d, _ = newFakeDynamo(t, map[string]string{"PutItem": ccfWithItem(7, time.Now().Add(-time.Minute).Unix(), 10)})
	if _, err := d.Update(ctx, "FAKE", 7, []byte("x"), exp); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("expired item: got %v, want ErrNotFound", err)
	}

	// No item with the error and none on reading: the game is missing.
	d, f = newFakeDynamo(t, map[string]string{"PutItem": ccfNoItem, "GetItem": `200 {}`})
	if _, err := d.Update(ctx, "FAKE", 1, []byte("x"), exp); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("no item: got %v, want ErrNotFound", err)
	}
	if fmt.Sprint(f.targets) != "[PutItem GetItem]" {
		t.Errorf("requests %v, want PutItem then GetItem", f.targets)
	}
}

func TestDynamoCapacitySplit(t *testing.T) {
	ctx := context.Background()
	var calls []string
	hook := func(op string, r, w float64) { calls = append(calls, fmt.Sprintf("%s r%g w%g", op, r, w)) }
	d, _ := newFakeDynamo(t, map[string]string{
		"PutItem": `200 {"ConsumedCapacity":{"TableName":"games","CapacityUnits":2,"WriteCapacityUnits":2}}`,
		"GetItem": `200 {"ConsumedCapacity":{"TableName":"games","CapacityUnits":0.5,"ReadCapacityUnits":0.5}}`,
	}, store.DynamoOptions{Capacity: hook})
	if err := d.Create(ctx, "FAKE", []byte("x"), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Get(ctx, "FAKE", false); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Get of an empty answer: got %v, want ErrNotFound", err)
	}
	if got, want := fmt.Sprint(calls), "[Create r0 w2 Get r0.5 w0]"; got != want {
		t.Errorf("capacity %s, want %s", got, want)
	}
}

func TestDynamoOtherErrorsPassThrough(t *testing.T) {
	d, _ := newFakeDynamo(t, map[string]string{
		"GetItem": `400 {"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException","message":"Requested resource not found"}`,
	})
	_, err := d.Get(context.Background(), "FAKE", true)
	if err == nil || errors.Is(err, store.ErrNotFound) || !strings.Contains(err.Error(), "ResourceNotFoundException") {
		t.Fatalf("a missing table: got %v, want DynamoDB's error, not ErrNotFound", err)
	}
}

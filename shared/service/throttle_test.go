package service_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"citysleeps/infra/harness/localdynamo/localdynamotest"
	"citysleeps/shared/service"
	"citysleeps/shared/store"
)

// lambdaTimeout is the functions' timeout in template.yaml (Globals.Function.Timeout).
const lambdaTimeout = 10 * time.Second

// throttledService is a service on the DynamoDB store as the functions build it
// (store.NewDynamoFromEnv), on dynalite behind an endpoint that throttles every
// write once the game is created. It returns the service, the game's code and
// the throttle.
func throttledService(tb testing.TB) (*service.Service, string, *localdynamotest.Throttle) {
	tb.Helper()
	srv := dynalite.Get(tb)
	th := localdynamotest.NewThrottle(tb, srv.Endpoint)
	tb.Setenv(store.EnvTableName, srv.Table)
	tb.Setenv(store.EnvDynamoDBEndpoint, th.Endpoint)
	st, err := store.NewDynamoFromEnv(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	svc := service.New(st, service.WithLogger(quiet))
	c, err := svc.Create(ctx, service.CreateRequest{Preset: "classic"})
	if err != nil {
		tb.Fatal(err)
	}
	th.On.Store(true)
	return svc, c.Code, th
}

// TestThrottledJoinAnswersInTime: when DynamoDB throttles every write, a join
// that runs under a Lambda function's deadline gives up with ErrUnavailable
// (the API's 503 with Retry-After) well before that deadline, after at most
// DefaultMaxRetries writes: the service's tries are the only ones, within one
// budget (issue 12: the SDK's retries under the service's made 23 PutItem
// attempts in 10 s, and the function timed out).
func TestThrottledJoinAnswersInTime(t *testing.T) {
	svc, code, th := throttledService(t)
	deadline, cancel := context.WithTimeout(context.Background(), lambdaTimeout)
	defer cancel()
	start := time.Now()
	_, err := svc.Join(deadline, code, service.JoinRequest{Name: "Anna"})
	took := time.Since(start)
	if !errors.Is(err, service.ErrUnavailable) || !errors.Is(err, store.ErrThrottled) {
		t.Fatalf("a throttled join: %v", err)
	}
	if deadline.Err() != nil {
		t.Fatalf("the join answered only after the function's deadline (%v)", took)
	}
	if n := th.Throttled.Load(); n < 2 || n > service.DefaultMaxRetries {
		t.Errorf("%d writes tried, want 2 to %d: one budget, no retries under it", n, service.DefaultMaxRetries)
	}
	t.Logf("a throttled join answered 503 after %v and %d writes", took.Round(time.Millisecond), th.Throttled.Load())

}

// BenchmarkThrottledJoin measures how long a join takes to its 503 when
// DynamoDB throttles every write (ns/op), and the writes it tries (writes/op),
// through the SDK client the functions use, on dynalite.
func BenchmarkThrottledJoin(b *testing.B) {
	svc, code, th := throttledService(b)
	for b.Loop() {
		deadline, cancel := context.WithTimeout(context.Background(), lambdaTimeout)
		if _, err := svc.Join(deadline, code, service.JoinRequest{Name: "Anna"}); !errors.Is(err, store.ErrThrottled) {
			b.Fatal(err)
		}
		cancel()
	}
	b.ReportMetric(float64(th.Throttled.Load())/float64(b.N), "writes/op")
}

package localdynamotest

import (
	"hash/crc32"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// Throttle is a DynamoDB endpoint in front of a local server that refuses
// writes as DynamoDB does when a table or a partition is over its throughput:
// HTTP 400 with a ProvisionedThroughputExceededException, which the AWS SDK
// counts as a throttle. Reads pass through. It lets a test see what a request
// does against a throttled table, through the real SDK client.
//
//	th := localdynamotest.NewThrottle(t, srv.Endpoint)
//	t.Setenv("DYNAMODB_ENDPOINT", th.Endpoint)
//	th.On.Store(true) // from now on every PutItem is throttled
type Throttle struct {
	// Endpoint is the throttling endpoint's base URL.
	Endpoint string
	// On turns the throttling on and off (off at first).
	On atomic.Bool
	// Throttled counts the writes refused so far.
	Throttled atomic.Int64
}

// throttledBody is what DynamoDB answers a throttled request with.
const throttledBody = `{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",` +
	`"message":"The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."}`

// NewThrottle starts a throttling endpoint in front of upstream (a Server's
// Endpoint), stopped when tb ends.
func NewThrottle(tb testing.TB, upstream string) *Throttle {
	tb.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		tb.Fatal(err)
	}
	th := &Throttle{}
	proxy := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if th.On.Load() && strings.HasSuffix(r.Header.Get("X-Amz-Target"), ".PutItem") {
			th.Throttled.Add(1)
			w.Header().Set("Content-Type", "application/x-amz-json-1.0")
			w.Header().Set("X-Amz-Crc32", strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(throttledBody))), 10))
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(throttledBody))
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	tb.Cleanup(srv.Close)
	th.Endpoint = srv.URL
	return th
}

package httpapi

import (
	"io"
	"log/slog"
	"time"

	"citysleeps/shared/service"
)

// EnvMetricsNamespace names the environment variable that, when set, is the
// CloudWatch namespace of the metrics the request lines carry
// (Config.Metrics). template.yaml sets it to CitySleeps/<stack>; the local
// server and `sam local` leave it empty.
const EnvMetricsNamespace = "METRICS_NAMESPACE"

// The metrics a request line carries, by the line's own field names: CloudWatch
// reads them from the line (the embedded metric format), so a deployed stack
// counts them with no metric filter, no extra call and no extra permission.
// template.yaml's alarms and dashboard name them; deploytest holds the two
// together.
const (
	// MetricTime is the handler's time in milliseconds, on every line; its
	// sample count is the number of requests.
	MetricTime = "ms"
	// MetricStarted and MetricFinished count deals and games' ends.
	MetricStarted  = "started"
	MetricFinished = "finished"
	// MetricConflicts counts the writes that found the game changed under
	// them and were tried again.
	MetricConflicts = "conflicts"
	// MetricFailed counts answers 5xx: the server's fault, never the player's.
	MetricFailed = "failed"
	// MetricRefused counts answers 4xx, by their code (DimensionError).
	MetricRefused = "refused"
)

// The dimensions: every metric but MetricRefused is published under
// DimensionService (one value, so that an alarm reads one series), and
// MetricRefused under DimensionError, the refusal's code.
const (
	DimensionService = "service"
	DimensionError   = "error"
	// ServiceName is DimensionService's value.
	ServiceName = "citysleeps"
)

// Metrics lists every metric a line may carry, for the template's tests.
var Metrics = []string{MetricTime, MetricStarted, MetricFinished, MetricConflicts, MetricFailed, MetricRefused}

// emf is the "_aws" member of a line in CloudWatch's embedded metric format:
// which of the line's fields are metrics, in which namespace, under which
// dimensions.
type emf struct {
	Timestamp         int64       `json:"Timestamp"`
	CloudWatchMetrics []directive `json:"CloudWatchMetrics"`
}

type directive struct {
	Namespace  string     `json:"Namespace"`
	Dimensions [][]string `json:"Dimensions"`
	Metrics    []metric   `json:"Metrics"`
}

type metric struct {
	Name string `json:"Name"`
	Unit string `json:"Unit,omitempty"`
}

// requestMetrics returns the request line's metric fields for a request that
// answered status with refusal code (if any) after elapsed, with what it did
// to its game (note); and, when namespace is set, the "_aws" member that
// makes them CloudWatch metrics. Counts appear only where they are not zero:
// CloudWatch sums them, and a line that says nothing costs nothing.
func requestMetrics(namespace string, at time.Time, status int, code string, elapsed time.Duration, note *service.Note) []any {
	attrs := []any{MetricTime, float64(elapsed.Microseconds()) / 1000}
	counted := []metric{{Name: MetricTime}} // milliseconds, as its name says: a Unit costs 22 bytes a line
	count := func(name string, n int) {
		if n > 0 {
			attrs = append(attrs, name, n)
			counted = append(counted, metric{name, "Count"})
		}
	}
	count(MetricConflicts, note.Conflicts())
	count(MetricStarted, one(note.Started()))
	count(MetricFinished, one(note.Finished()))
	count(MetricFailed, one(status >= 500))
	refused := status >= 400 && status < 500 && code != ""
	if refused {
		attrs = append(attrs, MetricRefused, 1)
	}
	if namespace == "" {
		return attrs
	}
	directives := []directive{{Namespace: namespace, Dimensions: [][]string{{DimensionService}}, Metrics: counted}}
	if refused {
		directives = append(directives, directive{Namespace: namespace, Dimensions: [][]string{{DimensionError}}, Metrics: []metric{{MetricRefused, "Count"}}})
	}
	return append(attrs, DimensionService, ServiceName,
		slog.Any("_aws", emf{Timestamp: at.UnixMilli(), CloudWatchMetrics: directives}))
}

func one(b bool) int {
	if b {
		return 1
	}
	return 0
}

// NewLogHandler is how the deployed functions log: JSON lines to w at INFO
// (the template's ApplicationLogLevel), without their own time, since
// CloudWatch stamps every event it takes in and each line's bytes are paid
// at ingestion, once for every poll. The load tool measures the bill with it.
func NewLogHandler(w io.Writer) slog.Handler {
	return slog.NewJSONHandler(w, &slog.HandlerOptions{ReplaceAttr: untimed})
}

func untimed(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

// Package lambdamain is the wiring every Lambda function shares: the store from
// the environment, the service, the HTTP handler for the function's routes, the
// adapter of the function URL's events (API Gateway's HTTP API payload 2.0,
// which `sam local start-api` sends too) and the Lambda runtime loop.
//
// Nothing is done at init that can wait: the AWS configuration is loaded and the
// DynamoDB client built on the first request (lazyStore), so a cold start
// costs the runtime's start and little more. Nothing of one game outlives its
// request: only the store client and the service are kept.
package lambdamain

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"strings"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"citysleeps/shared/httpapi"
	"citysleeps/shared/service"
	"citysleeps/shared/store"
)

// Run serves function's routes (one of httpapi.Functions) until the Lambda
// runtime stops the process.
func Run(function string) {
	lambda.Start(httpadapter.NewV2(Handler(function)).ProxyWithContext)
}

// Handler returns the function's HTTP handler with its store built lazily from
// the environment (TABLE_NAME, DYNAMODB_ENDPOINT, AWS_REGION), its join
// links' base from PUBLIC_URL and its metrics' namespace from
// METRICS_NAMESPACE.
func Handler(function string) http.Handler {
	logger := slog.New(httpapi.NewLogHandler(os.Stdout))
	games := service.New(&lazyStore{build: func(ctx context.Context) (store.Store, error) {
		return store.NewDynamoFromEnv(ctx)
	}}, service.WithLogger(logger))
	return viewersOwn(httpapi.New(httpapi.Config{
		Games:              games,
		Function:           function,
		PublicURL:          os.Getenv(httpapi.EnvPublicURL),
		Metrics:            os.Getenv(httpapi.EnvMetricsNamespace),
		TrustForwardedHost: true,
		Logger:             logger,
	}))
}

// viewersOwn gives next the request with the viewer's Authorization: the one
// CloudFront passed on in httpapi.ViewerAuthorization, or none when the viewer sent
// none (what Authorization holds then is CloudFront's signature, which the
// function URL has checked and the API must not take for a token). A request
// that did not come through CloudFront (sam local start-api) keeps its own.
func viewersOwn(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch viewer := r.Header.Get(httpapi.ViewerAuthorization); {
		case viewer != "":
			r.Header.Set("Authorization", viewer)
		case strings.HasPrefix(r.Header.Get("Authorization"), cloudFrontSignature):
			r.Header.Del("Authorization")
		}
		r.Header.Del(httpapi.ViewerAuthorization)
		next.ServeHTTP(w, r)
	})
}

// cloudFrontSignature opens the Authorization of a request CloudFront signed
// (SigV4).
const cloudFrontSignature = "AWS4-HMAC-SHA256 "

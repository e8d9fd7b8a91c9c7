// Command bare is not deployed: it is the yardstick for the functions' cold
// start. Built and run like them (provided.al2023, bootstrap, lambda.norpc), it
// does only what any DynamoDB-backed Go function must do at init, loading the
// AWS configuration and building a DynamoDB client, and answers every API
// Gateway HTTP API event with 200. infra/harness/deploytest measures its binary size and
// init time beside the real functions'.
package main

import (
	"context"
	"log"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

func main() {
	cfg, err := config.LoadDefaultConfig(context.Background())
	if err != nil {
		log.Fatalf("load AWS configuration: %v", err)
	}
	client := dynamodb.NewFromConfig(cfg)
	lambda.Start(func(ctx context.Context, _ events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		_ = client // kept, as a real function would
		return events.APIGatewayV2HTTPResponse{StatusCode: 200, Body: "ok"}, nil
	})
}

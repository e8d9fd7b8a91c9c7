package localdynamo_test

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"citysleeps/infra/harness/localdynamo"
	"citysleeps/infra/harness/localdynamo/localdynamotest"
)

func TestLoadGamesTableFromTemplate(t *testing.T) {
	path, err := localdynamo.TemplatePath()
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := localdynamo.LoadTable(path, localdynamo.GamesTableID)
	if err != nil {
		t.Fatal(err)
	}
	in := tbl.Input
	if in.BillingMode != types.BillingModePayPerRequest {
		t.Errorf("BillingMode = %q, want PAY_PER_REQUEST", in.BillingMode)
	}
	if len(in.KeySchema) != 1 || aws.ToString(in.KeySchema[0].AttributeName) != "code" || in.KeySchema[0].KeyType != types.KeyTypeHash {
		t.Errorf("KeySchema = %+v, want code HASH", in.KeySchema)
	}
	if len(in.AttributeDefinitions) != 1 || aws.ToString(in.AttributeDefinitions[0].AttributeName) != "code" ||
		in.AttributeDefinitions[0].AttributeType != types.ScalarAttributeTypeS {
		t.Errorf("AttributeDefinitions = %+v, want code S", in.AttributeDefinitions)
	}
	if tbl.TTLAttribute != "expiresAt" {
		t.Errorf("TTLAttribute = %q, want expiresAt", tbl.TTLAttribute)
	}
	if in.TableName != nil || in.ProvisionedThroughput != nil {
		t.Errorf("TableName %v, ProvisionedThroughput %v: want both unset", in.TableName, in.ProvisionedThroughput)
	}
}

// samTemplate has what other parts of a SAM template hold: short-form
// intrinsic functions, Globals, serverless resources.
const samTemplate = `AWSTemplateFormatVersion: '2010-09-09'
Transform: AWS::Serverless-2016-10-31
Globals:
  Function:
    Runtime: provided.al2023
    Architectures: [arm64]
    Environment:
      Variables:
        TABLE_NAME: !Ref GamesTable
Resources:
  Api:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: bin/api/
      Policies:
        - DynamoDBCrudPolicy:
            TableName: !Ref GamesTable
      Environment:
        Variables:
          ARN: !GetAtt GamesTable.Arn
          NAME: !Sub '${AWS::StackName}-games'
          PICK: !If [IsProd, a, b]
  GamesTable:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: !Sub '${AWS::StackName}-games'
      BillingMode: PROVISIONED
      ProvisionedThroughput: {ReadCapacityUnits: 5, WriteCapacityUnits: 2}
      AttributeDefinitions:
        - {AttributeName: code, AttributeType: S}
        - {AttributeName: host, AttributeType: S}
      KeySchema:
        - {AttributeName: code, KeyType: HASH}
      GlobalSecondaryIndexes:
        - IndexName: byHost
          KeySchema: [{AttributeName: host, KeyType: HASH}]
          Projection: {ProjectionType: KEYS_ONLY}
          ProvisionedThroughput: {ReadCapacityUnits: 1, WriteCapacityUnits: 1}
      TimeToLiveSpecification: {AttributeName: ttl, Enabled: false}
Outputs:
  Table:
    Value: !Ref GamesTable
`

func writeTemplate(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "template.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadTableWithIntrinsics(t *testing.T) {
	tbl, err := localdynamo.LoadTable(writeTemplate(t, samTemplate), "GamesTable")
	if err != nil {
		t.Fatal(err)
	}
	in := tbl.Input
	if in.BillingMode != types.BillingModeProvisioned || aws.ToInt64(in.ProvisionedThroughput.ReadCapacityUnits) != 5 {
		t.Errorf("BillingMode %q, throughput %+v", in.BillingMode, in.ProvisionedThroughput)
	}
	if len(in.GlobalSecondaryIndexes) != 1 || aws.ToString(in.GlobalSecondaryIndexes[0].IndexName) != "byHost" ||
		in.GlobalSecondaryIndexes[0].Projection.ProjectionType != types.ProjectionTypeKeysOnly {
		t.Errorf("GlobalSecondaryIndexes = %+v", in.GlobalSecondaryIndexes)
	}
	if tbl.TTLAttribute != "" {
		t.Errorf("TTLAttribute = %q for a disabled TTL, want \"\"", tbl.TTLAttribute)
	}
}

func TestLoadTableErrors(t *testing.T) {
	path := writeTemplate(t, samTemplate)
	for _, tc := range []struct{ id, want string }{
		{"NoSuchTable", "no resource NoSuchTable"},
		{"Api", "not an AWS::DynamoDB::Table"},
	} {
		_, err := localdynamo.LoadTable(path, tc.id)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("LoadTable(%s): got %v, want an error saying %q", tc.id, err, tc.want)
		}
	}
	if _, err := localdynamo.LoadTable(filepath.Join(t.TempDir(), "none.yaml"), "GamesTable"); err == nil {
		t.Error("LoadTable of a missing file succeeded")
	}
}

func TestStartStop(t *testing.T) {
	ctx := context.Background()
	srv, err := localdynamo.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(srv.Endpoint, "http://127.0.0.1:") {
		t.Errorf("Endpoint %q is not on loopback", srv.Endpoint)
	}
	client := srv.Client()
	out, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(srv.Table)})
	if err != nil {
		t.Fatal(err)
	}
	if out.Table.TableStatus != types.TableStatusActive || aws.ToString(out.Table.KeySchema[0].AttributeName) != "code" {
		t.Errorf("table %s: status %s, key %+v", srv.Table, out.Table.TableStatus, out.Table.KeySchema)
	}
	if err := srv.CreateTable(ctx, "another"); err != nil {
		t.Fatal(err)
	}
	tables, err := client.ListTables(ctx, &dynamodb.ListTablesInput{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(tables.TableNames, srv.Table) || !slices.Contains(tables.TableNames, "another") {
		t.Errorf("tables %v", tables.TableNames)
	}
	env := srv.Env()
	if !slices.Contains(env, "TABLE_NAME="+srv.Table) || !slices.Contains(env, "DYNAMODB_ENDPOINT="+srv.Endpoint) {
		t.Errorf("Env() = %v", env)
	}

	if err := srv.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := srv.Stop(); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
	host := strings.TrimPrefix(srv.Endpoint, "http://")
	if c, err := net.DialTimeout("tcp", host, time.Second); err == nil {
		c.Close()
		t.Fatalf("%s still accepts connections after Stop", host)
	}
}

// TestStartWithoutDynalite checks the message for a checkout where `npm ci`
// has not been run: Start fails (tests never skip) and says what to do.
func TestStartWithoutDynalite(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	_, err := localdynamo.Start(context.Background())
	if !errors.Is(err, localdynamo.ErrNotInstalled) || !strings.Contains(err.Error(), "npm ci") {
		t.Fatalf("got %v, want ErrNotInstalled telling to run npm ci", err)
	}
}

// TestMustStartServesTable is how a test uses the package.
func TestMustStartServesTable(t *testing.T) {
	srv := localdynamotest.MustStart(t)
	ctx := context.Background()
	client := srv.Client()
	item := map[string]types.AttributeValue{"code": &types.AttributeValueMemberS{Value: "ABC"}}
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(srv.Table), Item: item}); err != nil {
		t.Fatal(err)
	}
	out, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(srv.Table), Key: item})
	if err != nil || out.Item == nil {
		t.Fatalf("GetItem = %v, %v", out, err)
	}
}

// TestStopKillsProcessGroup checks that nothing of the server outlives Stop.
func TestStopKillsProcessGroup(t *testing.T) {
	srv, err := localdynamo.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	pgid := srv.PID()
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(-pgid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("process group %d after Stop: kill -0 gave %v, want ESRCH", pgid, err)
	}
}

// TestOutlivesAbortedRequest: a client that goes away halfway through a
// request (a test's deadline cancelling a call in flight) leaves dynalite
// serving; dynalite's own server throws on it and exited, failing every test
// after the one that cancelled.
func TestOutlivesAbortedRequest(t *testing.T) {
	ctx := context.Background()
	srv, err := localdynamo.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	host := strings.TrimPrefix(srv.Endpoint, "http://")
	for range 3 {
		c, err := net.DialTimeout("tcp", host, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		// A request that promises a body and sends half of it.
		c.Write([]byte("POST / HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/x-amz-json-1.0\r\n" +
			"X-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: 100\r\n\r\n{\"Lim"))
		time.Sleep(50 * time.Millisecond)
		c.Close()
	}
	if _, err := srv.Client().ListTables(ctx, &dynamodb.ListTablesInput{}); err != nil {
		t.Fatalf("after three requests left halfway: %v", err)
	}
}

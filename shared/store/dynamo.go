package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

// Dynamo is a Store on a DynamoDB table: one item per game, keyed by the room
// code (attribute "code", S), with "version" (N), "state" (B) and "expiresAt"
// (N, epoch seconds: the table's TTL attribute). Every write is a conditional
// PutItem, so two writers that read the same version cannot both succeed.
//
// Every request is made once: the AWS SDK's own retries are turned off for
// them (noRetries), however the client was built. The caller (the service)
// retries within one budget per request; with the SDK's retries underneath,
// each of its tries became up to three, with backoffs of up to seconds, and a
// throttled request outlived the function's timeout.
type Dynamo struct {
	client   *dynamodb.Client
	table    string
	capacity Capacity
	now      func() time.Time
}

var _ Store = (*Dynamo)(nil)

// DynamoOptions are the optional settings of a Dynamo store.
type DynamoOptions struct {
	// Capacity, if set, is called after every request with the capacity units it
	// consumed. For requests that succeed these are the units DynamoDB reports
	// (ReturnConsumedCapacity TOTAL). DynamoDB reports nothing with a write its
	// condition refused, yet bills it by the larger of the existing and the new
	// item; for those the units are computed that way from ItemSize. When an
	// Update is refused and DynamoDB does not return the stored item with the
	// error (dynalite never does), the store reads it to tell a conflict from a
	// missing game; that read is reported under OpUpdate too.
	Capacity Capacity
	// Now, if set, replaces the wall clock in judging expiry, for tests.
	Now func() time.Time
}

// NewDynamo returns a Store on the named table through client. It makes no
// request until it is used. If several options are given, the last one counts.
func NewDynamo(client *dynamodb.Client, table string, opts ...DynamoOptions) *Dynamo {
	d := &Dynamo{client: client, table: table, now: time.Now}
	for _, o := range opts {
		d.capacity = o.Capacity
		if o.Now != nil {
			d.now = o.Now
		} else {
			d.now = time.Now
		}
	}
	return d
}

// Environment variables read by NewDynamoFromEnv.
const (
	EnvTableName        = "TABLE_NAME"
	EnvDynamoDBEndpoint = "DYNAMODB_ENDPOINT"
)

// NewDynamoFromEnv returns a Dynamo store configured from the environment: the
// table from TABLE_NAME (required) and the AWS SDK's usual settings. When
// DYNAMODB_ENDPOINT is set, requests go to that endpoint instead (a local
// DynamoDB such as dynalite); then the region defaults to us-east-1, and if
// AWS_ACCESS_KEY_ID is not set, fixed dummy credentials are used, which a local
// server accepts. It reads configuration files but makes no request.
func NewDynamoFromEnv(ctx context.Context, opts ...DynamoOptions) (*Dynamo, error) {
	table := os.Getenv(EnvTableName)
	if table == "" {
		return nil, fmt.Errorf("store: %s is not set", EnvTableName)
	}
	endpoint := os.Getenv(EnvDynamoDBEndpoint)
	var load []func(*config.LoadOptions) error
	if endpoint != "" {
		if os.Getenv("AWS_REGION") == "" && os.Getenv("AWS_DEFAULT_REGION") == "" {
			load = append(load, config.WithRegion("us-east-1"))
		}
		if os.Getenv("AWS_ACCESS_KEY_ID") == "" {
			load = append(load, config.WithCredentialsProvider(
				credentials.NewStaticCredentialsProvider("local", "local", "")))
		}
	}
	cfg, err := config.LoadDefaultConfig(ctx, load...)
	if err != nil {
		return nil, fmt.Errorf("store: load AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		return nil, errors.New("store: no AWS region: set AWS_REGION")
	}
	client := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	})
	return NewDynamo(client, table, opts...), nil
}

// Create stores a new game at version 1; ErrExists if the code is taken by an
// unexpired item. An expired item that DynamoDB's TTL has not removed yet is
// replaced.
func (d *Dynamo) Create(ctx context.Context, code string, state []byte, expiresAt time.Time) error {
	if err := checkWrite("create", code, expiresAt); err != nil {
		return err
	}
	now := d.now()
	cond := expression.AttributeNotExists(expression.Name(attrCode)).
		Or(expression.Name(attrExpiresAt).LessThanEqual(expression.Value(now.Unix())))
	it := Item{Code: code, Version: 1, State: state, ExpiresAt: expiresAt}
	_, err := d.put(ctx, OpCreate, it, cond)
	if err == nil {
		return nil
	}
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		var existing *Item
		if cur, err := decodeDynamo(code, ccf.Item); err == nil {
			existing = &cur
		}
		d.report(OpCreate, 0, failedWriteUnits(it, existing))
		return fmt.Errorf("create game %q: %w", code, ErrExists)
	}
	return fmt.Errorf("create game %q: %w", code, err)
}

// Get loads a game; consistent asks DynamoDB for a strongly consistent read.
func (d *Dynamo) Get(ctx context.Context, code string, consistent bool) (Item, error) {
	if err := checkCode("get", code); err != nil {
		return Item{}, err
	}
	it, err := d.get(ctx, OpGet, code, consistent)
	if err != nil {
		return Item{}, fmt.Errorf("get game %q: %w", code, err)
	}
	return it, nil
}

// Update replaces the state only if the stored version is still expected (and
// the game has not expired), and returns the new version (expected+1).
func (d *Dynamo) Update(ctx context.Context, code string, expected int64, state []byte, expiresAt time.Time) (int64, error) {
	if err := checkWrite("update", code, expiresAt); err != nil {
		return 0, err
	}
	now := d.now()
	cond := expression.Name(attrVersion).Equal(expression.Value(expected)).
		And(expression.Name(attrExpiresAt).GreaterThan(expression.Value(now.Unix())))
	it := Item{Code: code, Version: expected + 1, State: state, ExpiresAt: expiresAt}
	_, err := d.put(ctx, OpUpdate, it, cond)
	if err == nil {
		return it.Version, nil
	}
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		return 0, fmt.Errorf("update game %q from version %d: %w", code, expected, err)
	}
	// Tell a missing game from a newer version. DynamoDB returns the stored item
	// with the error (ReturnValuesOnConditionCheckFailure); with no item, either
	// there is none or the server does not support returning it (dynalite), so read.
	var cur Item
	if ccf.Item != nil {
		cur, err = decodeDynamo(code, ccf.Item)
	} else {
		cur, err = d.get(ctx, OpUpdate, code, true)
	}
	if err == nil {
		d.report(OpUpdate, 0, failedWriteUnits(it, &cur))
		if expired(epochSeconds(cur.ExpiresAt), now) {
			err = ErrNotFound
		}
	} else {
		d.report(OpUpdate, 0, failedWriteUnits(it, nil))
	}
	switch {
	case errors.Is(err, ErrNotFound):
		return 0, fmt.Errorf("update game %q: %w", code, ErrNotFound)
	case err != nil:
		return 0, fmt.Errorf("update game %q from version %d: condition failed, then: %w", code, expected, err)
	}
	return 0, fmt.Errorf("update game %q from version %d (now %d): %w", code, expected, cur.Version, ErrConflict)
}

// noRetries makes one request one attempt (see Dynamo).
func noRetries(o *dynamodb.Options) { o.Retryer = aws.NopRetryer{} }

// put writes it whole if cond holds, and reports the capacity consumed.
func (d *Dynamo) put(ctx context.Context, op string, it Item, cond expression.ConditionBuilder) (*dynamodb.PutItemOutput, error) {
	expr, err := expression.NewBuilder().WithCondition(cond).Build()
	if err != nil {
		return nil, fmt.Errorf("store: build condition: %w", err)
	}
	out, err := d.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                           aws.String(d.table),
		Item:                                encodeDynamo(it),
		ConditionExpression:                 expr.Condition(),
		ExpressionAttributeNames:            expr.Names(),
		ExpressionAttributeValues:           expr.Values(),
		ReturnConsumedCapacity:              types.ReturnConsumedCapacityTotal,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}, noRetries)
	if err != nil {
		return nil, mapDynamoError(err)
	}
	d.reportConsumed(op, out.ConsumedCapacity, false)
	return out, nil
}

// get reads one game, reporting the capacity consumed under op.
func (d *Dynamo) get(ctx context.Context, op, code string, consistent bool) (Item, error) {
	now := d.now()
	out, err := d.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:              aws.String(d.table),
		Key:                    map[string]types.AttributeValue{attrCode: &types.AttributeValueMemberS{Value: code}},
		ConsistentRead:         aws.Bool(consistent),
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	}, noRetries)
	if err != nil {
		return Item{}, mapDynamoError(err)
	}
	d.reportConsumed(op, out.ConsumedCapacity, true)
	it, err := decodeDynamo(code, out.Item)
	if err != nil {
		return Item{}, err
	}
	if expired(epochSeconds(it.ExpiresAt), now) {
		return Item{}, ErrNotFound
	}
	return it, nil
}

// mapDynamoError turns DynamoDB's refusal of an oversized item into ErrTooLarge
// and its throttling (the codes the SDK itself counts as throttles) into
// ErrThrottled, and leaves every other error as it is.
func mapDynamoError(err error) error {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		if _, ok := retry.DefaultThrottleErrorCodes[ae.ErrorCode()]; ok {
			return fmt.Errorf("%w (%s: %s)", ErrThrottled, ae.ErrorCode(), ae.ErrorMessage())
		}
	}
	if errors.As(err, &ae) && ae.ErrorCode() == "ValidationException" {
		msg := strings.ToLower(ae.ErrorMessage())
		// PutItem: "Item size has exceeded the maximum allowed size";
		// UpdateItem: "Item size to update has exceeded the maximum allowed size".
		if strings.Contains(msg, "size") && strings.Contains(msg, "exceed") {
			return fmt.Errorf("%w (%s)", ErrTooLarge, ae.ErrorMessage())
		}
	}
	return err
}

// reportConsumed passes the capacity DynamoDB reported to the Capacity hook.
// DynamoDB's TOTAL mode gives CapacityUnits and, in newer responses, the read
// and write split; dynalite gives CapacityUnits only, which counts as reads for
// a read request and as writes for a write.
func (d *Dynamo) reportConsumed(op string, cc *types.ConsumedCapacity, read bool) {
	if d.capacity == nil || cc == nil {
		return
	}
	var r, w float64
	switch {
	case cc.ReadCapacityUnits != nil || cc.WriteCapacityUnits != nil:
		r, w = aws.ToFloat64(cc.ReadCapacityUnits), aws.ToFloat64(cc.WriteCapacityUnits)
	case read:
		r = aws.ToFloat64(cc.CapacityUnits)
	default:
		w = aws.ToFloat64(cc.CapacityUnits)
	}
	d.capacity(op, r, w)
}

// report passes capacity units the store worked out itself to the Capacity hook.
func (d *Dynamo) report(op string, r, w float64) {
	if d.capacity != nil {
		d.capacity(op, r, w)
	}
}

// failedWriteUnits is what DynamoDB bills for a write its condition refused:
// one write unit per KB of the larger of the existing item (if known) and the
// new one.
func failedWriteUnits(attempt Item, existing *Item) float64 {
	size := ItemSize(attempt)
	if existing != nil {
		size = max(size, ItemSize(*existing))
	}
	return float64(max(1, (size+1023)/1024))
}

// encodeDynamo lays out a game as a DynamoDB item.
func encodeDynamo(it Item) map[string]types.AttributeValue {
	state := it.State
	if state == nil {
		state = []byte{}
	}
	return map[string]types.AttributeValue{
		attrCode:      &types.AttributeValueMemberS{Value: it.Code},
		attrVersion:   &types.AttributeValueMemberN{Value: strconv.FormatInt(it.Version, 10)},
		attrState:     &types.AttributeValueMemberB{Value: state},
		attrExpiresAt: &types.AttributeValueMemberN{Value: strconv.FormatInt(epochSeconds(it.ExpiresAt), 10)},
	}
}

// decodeDynamo reads an item that encodeDynamo laid out. A missing item is
// ErrNotFound; expiry is left to the caller.
func decodeDynamo(code string, av map[string]types.AttributeValue) (Item, error) {
	if len(av) == 0 {
		return Item{}, ErrNotFound
	}
	bad := func(what string) (Item, error) {
		return Item{}, fmt.Errorf("store: game %q: malformed item: %s", code, what)
	}
	ver, ok := av[attrVersion].(*types.AttributeValueMemberN)
	if !ok {
		return bad("no number " + attrVersion)
	}
	version, err := strconv.ParseInt(ver.Value, 10, 64)
	if err != nil {
		return bad(attrVersion + ": " + err.Error())
	}
	exp, ok := av[attrExpiresAt].(*types.AttributeValueMemberN)
	if !ok {
		return bad("no number " + attrExpiresAt)
	}
	expSec, err := strconv.ParseInt(exp.Value, 10, 64)
	if err != nil {
		return bad(attrExpiresAt + ": " + err.Error())
	}
	var state []byte
	switch s := av[attrState].(type) {
	case *types.AttributeValueMemberB:
		state = s.Value
	case nil:
		// An empty state is stored as an empty binary, which some servers drop.
	default:
		return bad(attrState + " is not binary")
	}
	return Item{Code: code, Version: version, State: state, ExpiresAt: time.Unix(expSec, 0)}, nil
}

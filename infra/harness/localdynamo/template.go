package localdynamo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"gopkg.in/yaml.v3"
)

// GamesTableID is the logical ID of the games table in template.yaml.
const GamesTableID = "GamesTable"

// Table is a DynamoDB table as template.yaml defines it.
type Table struct {
	// Input creates the table; its TableName is empty, for the caller to fill in.
	Input dynamodb.CreateTableInput
	// TTLAttribute is the attribute named by TimeToLiveSpecification, or "" if
	// TTL is not enabled. (dynalite has no TTL: it is checked, not applied.)
	TTLAttribute string
}

// RepoRoot returns the directory of the go.mod that holds the working directory,
// walking up from it.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("localdynamo: %w", err)
	}
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("localdynamo: no go.mod in %s or any directory above it", dir)
		}
		d = parent
	}
}

// TemplatePath returns the path of template.yaml at the repository root.
func TemplatePath() (string, error) {
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "template.yaml"), nil
}

// LoadTable reads the AWS::DynamoDB::Table resource with the given logical ID
// from the SAM/CloudFormation template at path. The rest of the template is
// not interpreted, so intrinsic functions in short form (!Ref, !GetAtt, !Sub)
// elsewhere in it are fine; the table properties used here must be literal.
func LoadTable(path, logicalID string) (*Table, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("localdynamo: read template: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("localdynamo: parse %s: %w", path, err)
	}
	if len(doc.Content) == 0 {
		return nil, fmt.Errorf("localdynamo: %s is empty", path)
	}
	res := child(doc.Content[0], "Resources")
	if res == nil {
		return nil, fmt.Errorf("localdynamo: %s has no Resources", path)
	}
	node := child(res, logicalID)
	if node == nil {
		return nil, fmt.Errorf("localdynamo: %s has no resource %s", path, logicalID)
	}
	var r struct {
		Type       string     `yaml:"Type"`
		Properties tableProps `yaml:"Properties"`
	}
	if err := node.Decode(&r); err != nil {
		return nil, fmt.Errorf("localdynamo: %s in %s: %w", logicalID, path, err)
	}
	if r.Type != "AWS::DynamoDB::Table" {
		return nil, fmt.Errorf("localdynamo: %s in %s is a %s, not an AWS::DynamoDB::Table", logicalID, path, r.Type)
	}
	t, err := r.Properties.table()
	if err != nil {
		return nil, fmt.Errorf("localdynamo: %s in %s: %w", logicalID, path, err)
	}
	return t, nil
}

// child returns the value under key in a YAML mapping node, or nil.
func child(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// tableProps are the properties of AWS::DynamoDB::Table that CreateTable takes.
type tableProps struct {
	BillingMode          string `yaml:"BillingMode"`
	AttributeDefinitions []struct {
		AttributeName string `yaml:"AttributeName"`
		AttributeType string `yaml:"AttributeType"`
	} `yaml:"AttributeDefinitions"`
	KeySchema              keySchema       `yaml:"KeySchema"`
	ProvisionedThroughput  *throughput     `yaml:"ProvisionedThroughput"`
	GlobalSecondaryIndexes []indexProps    `yaml:"GlobalSecondaryIndexes"`
	LocalSecondaryIndexes  []indexProps    `yaml:"LocalSecondaryIndexes"`
	TimeToLive             *timeToLiveSpec `yaml:"TimeToLiveSpecification"`
}

type keySchema []struct {
	AttributeName string `yaml:"AttributeName"`
	KeyType       string `yaml:"KeyType"`
}

type throughput struct {
	ReadCapacityUnits  int64 `yaml:"ReadCapacityUnits"`
	WriteCapacityUnits int64 `yaml:"WriteCapacityUnits"`
}

type indexProps struct {
	IndexName  string    `yaml:"IndexName"`
	KeySchema  keySchema `yaml:"KeySchema"`
	Projection struct {
		ProjectionType   string   `yaml:"ProjectionType"`
		NonKeyAttributes []string `yaml:"NonKeyAttributes"`
	} `yaml:"Projection"`
	ProvisionedThroughput *throughput `yaml:"ProvisionedThroughput"`
}

type timeToLiveSpec struct {
	AttributeName string `yaml:"AttributeName"`
	Enabled       bool   `yaml:"Enabled"`
}

func (k keySchema) sdk() []types.KeySchemaElement {
	var out []types.KeySchemaElement
	for _, e := range k {
		out = append(out, types.KeySchemaElement{AttributeName: aws.String(e.AttributeName), KeyType: types.KeyType(e.KeyType)})
	}
	return out
}

func (t *throughput) sdk() *types.ProvisionedThroughput {
	if t == nil {
		return nil
	}
	return &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(t.ReadCapacityUnits), WriteCapacityUnits: aws.Int64(t.WriteCapacityUnits)}
}

func (ip indexProps) projection() *types.Projection {
	return &types.Projection{ProjectionType: types.ProjectionType(ip.Projection.ProjectionType), NonKeyAttributes: ip.Projection.NonKeyAttributes}
}

// table turns the properties into a CreateTable input.
func (p tableProps) table() (*Table, error) {
	if len(p.KeySchema) == 0 || len(p.AttributeDefinitions) == 0 {
		return nil, errors.New("no KeySchema or AttributeDefinitions")
	}
	t := &Table{}
	in := &t.Input
	in.BillingMode = types.BillingMode(p.BillingMode)
	in.KeySchema = p.KeySchema.sdk()
	in.ProvisionedThroughput = p.ProvisionedThroughput.sdk()
	for _, a := range p.AttributeDefinitions {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{
			AttributeName: aws.String(a.AttributeName), AttributeType: types.ScalarAttributeType(a.AttributeType),
		})
	}
	for _, ix := range p.GlobalSecondaryIndexes {
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{
			IndexName: aws.String(ix.IndexName), KeySchema: ix.KeySchema.sdk(),
			Projection: ix.projection(), ProvisionedThroughput: ix.ProvisionedThroughput.sdk(),
		})
	}
	for _, ix := range p.LocalSecondaryIndexes {
		in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{
			IndexName: aws.String(ix.IndexName), KeySchema: ix.KeySchema.sdk(), Projection: ix.projection(),
		})
	}
	if p.TimeToLive != nil && p.TimeToLive.Enabled {
		t.TTLAttribute = p.TimeToLive.AttributeName
	}
	return t, nil
}

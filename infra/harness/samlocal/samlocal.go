// Package samlocal points `sam local start-api` at dynalite on loopback, so
// that SAM CLI's local run of the functions never reaches the DynamoDB of
// whoever runs it, with their credentials.
//
// SAM CLI's --env-vars file overrides only the environment variables the
// template declares: a variable the template does not name is dropped
// without a word. So every variable the functions read (Variables) is
// declared in template.yaml's Globals, empty where AWS needs no value, and
// the file this package writes sets each of them (deploytest checks both,
// and runs every function under the Lambda Runtime Interface Emulator with
// the environment that results).
package samlocal

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"citysleeps/shared/httpapi"
	"citysleeps/shared/store"
)

// Variables are the environment variables the functions read, beside the
// ones Lambda sets itself (AWS_REGION, the credentials): the games table,
// the DynamoDB endpoint (empty in AWS), the join links' base and the
// metrics' namespace (empty locally: no metrics leave this machine).
var Variables = []string{store.EnvTableName, store.EnvDynamoDBEndpoint, httpapi.EnvPublicURL, httpapi.EnvMetricsNamespace}

// EnvVars is the content of an env-vars file: under Parameters, the values
// for every function of the template.
type EnvVars struct {
	Parameters map[string]string `json:"Parameters"`
}

// Local is the env-vars file for the games table named table at the local
// DynamoDB endpoint, with the join links' base publicURL (empty: the host
// the request came to, as sam local's API passes it on).
func Local(endpoint, table, publicURL string) EnvVars {
	return EnvVars{Parameters: map[string]string{
		store.EnvTableName:          table,
		store.EnvDynamoDBEndpoint:   endpoint,
		httpapi.EnvPublicURL:        publicURL,
		httpapi.EnvMetricsNamespace: "",
	}}
}

// Write saves e at path as SAM CLI reads it, making its directory if need be.
func (e EnvVars) Write(path string) error {
	b, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// Environment is what SAM CLI gives a function: each variable the template
// declares (declared, with the template's values), its value replaced by
// e's where e has one; a variable e sets that the template does not declare
// is dropped, as SAM CLI drops it. The result is sorted, as KEY=value.
func (e EnvVars) Environment(declared map[string]string) []string {
	env := maps.Clone(declared)
	for k, v := range e.Parameters {
		if _, ok := env[k]; ok {
			env[k] = v
		}
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(env)) {
		out = append(out, fmt.Sprintf("%s=%s", k, env[k]))
	}
	return out
}

// Command act is the Lambda function that applies actions: POST /api/games/{code}/actions.
package main

import (
	"citysleeps/functions/internal/lambdamain"
	"citysleeps/shared/httpapi"
)

func main() { lambdamain.Run(httpapi.FuncAct) }

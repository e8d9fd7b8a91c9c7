// Command create is the Lambda function that creates games: POST /api/games.
package main

import (
	"citysleeps/functions/internal/lambdamain"
	"citysleeps/shared/httpapi"
)

func main() { lambdamain.Run(httpapi.FuncCreate) }

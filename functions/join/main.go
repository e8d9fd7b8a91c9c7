// Command join is the Lambda function that seats players in a lobby: POST /api/games/{code}/players.
package main

import (
	"citysleeps/functions/internal/lambdamain"
	"citysleeps/shared/httpapi"
)

func main() { lambdamain.Run(httpapi.FuncJoin) }

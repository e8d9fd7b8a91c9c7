// Command read is the Lambda function that reads games: GET /api/games/{code}, its QR code and /api/health; it never writes.
package main

import (
	"citysleeps/functions/internal/lambdamain"
	"citysleeps/shared/httpapi"
)

func main() { lambdamain.Run(httpapi.FuncRead) }

package httpapi

// The Lambda functions, by the name of their directory under functions/. Each
// route is served by exactly one of them in AWS; the local server serves all.
const (
	FuncCreate = "create"
	FuncJoin   = "join"
	FuncRead   = "read"
	FuncAct    = "act"
)

// Functions lists the Lambda functions in the order the template declares them.
var Functions = []string{FuncCreate, FuncJoin, FuncRead, FuncAct}

// Route is one API route: a method, a path in the pattern syntax that both
// net/http's ServeMux and API Gateway HTTP APIs use, and the function serving it.
type Route struct {
	Method   string
	Path     string
	Function string
}

// Pattern is the route as a ServeMux pattern, such as "GET /api/games/{code}".
func (r Route) Pattern() string { return r.Method + " " + r.Path }

// The route paths.
const (
	PathGames    = "/api/games"
	PathGame     = "/api/games/{code}"
	PathPlayers  = "/api/games/{code}/players"
	PathActions  = "/api/games/{code}/actions"
	PathNext     = "/api/games/{code}/next"
	PathQR       = "/api/games/{code}/qr.svg"
	PathProtocol = "/api/games/{code}/protocol"
	PathExport   = "/api/games/{code}/export"
	PathHealth   = "/api/health"
	PathRules    = "/api/rules"

	PathEvenings       = "/api/evenings"
	PathEvening        = "/api/evenings/{code}"
	PathEveningPlayers = "/api/evenings/{code}/players"
	PathEveningActions = "/api/evenings/{code}/actions"
	PathEveningExport  = "/api/evenings/{code}/export"
	PathEveningRecord  = "/api/evenings/{code}/record"
	PathEveningQR      = "/api/evenings/{code}/qr.svg"
)

// Routes are every route of the API. template.yaml routes each of them, and
// nothing else, to its function; a test holds the two together.
//
// The read function serves the QR code, the protocol and its export, an
// evening's export, record and QR code, the health check and the rules' schema too:
// they only read (an evening's export reads what the act and join functions
// kept of its games when they recorded them).
// The create function opens the next game of a finished one ("play again"), as
// it opens any game. An evening's routes go to the function that does the same
// to a game: making one to create, joining to join, reading to read (which
// never writes), its actions to act, which also makes a round's games.
var Routes = []Route{
	{"POST", PathGames, FuncCreate},
	{"POST", PathNext, FuncCreate},
	{"POST", PathPlayers, FuncJoin},
	{"GET", PathGame, FuncRead},
	{"GET", PathQR, FuncRead},
	{"GET", PathProtocol, FuncRead},
	{"GET", PathExport, FuncRead},
	{"GET", PathHealth, FuncRead},
	{"GET", PathRules, FuncRead},
	{"POST", PathActions, FuncAct},
	{"POST", PathEvenings, FuncCreate},
	{"POST", PathEveningPlayers, FuncJoin},
	{"GET", PathEvening, FuncRead},
	{"GET", PathEveningExport, FuncRead},
	{"GET", PathEveningRecord, FuncRead},
	{"GET", PathEveningQR, FuncRead},
	{"POST", PathEveningActions, FuncAct},
}

// JoinPath is the path of the page a player opens to join the game with code;
// the join link and the QR code point there, and Static serves the frontend's
// index.html for it.
func JoinPath(code string) string { return "/join/" + code }

// EveningPath is the path of the page a phone opens to join the evening with
// code (its QR code's link).
func EveningPath(code string) string { return "/evening/" + code }

// ViewerAuthorization is the header in which CloudFront passes the viewer's
// Authorization on to a function: it signs its own request to the function's
// URL in Authorization (template.yaml's ApiRequestFunction moves the viewer's
// aside, and the Lambda wiring puts it back).
const ViewerAuthorization = "X-Viewer-Authorization"

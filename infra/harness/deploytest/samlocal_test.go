package deploytest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"citysleeps/infra/harness/samlocal"
)

// declaredEnv is the environment template.yaml declares for every function
// (Globals.Function.Environment.Variables), each value as plain text.
func declaredEnv(tb testing.TB) map[string]string {
	tb.Helper()
	vars, _ := at(rawTemplate(tb), "Globals", "Function", "Environment", "Variables").(map[string]any)
	out := map[string]string{}
	for k, v := range vars {
		out[k] = fmt.Sprint(v)
	}
	return out
}

// TestTemplateDeclaresWhatFunctionsRead: SAM CLI's --env-vars file sets
// only the variables the template declares and drops the others without a
// word (issue 27: DYNAMODB_ENDPOINT was dropped, and `sam local` reached the
// real DynamoDB of whoever ran it). So every variable the functions' code
// reads, found in the source of every package they are built from, is
// declared in template.yaml, and the file `make sam-local` writes sets each
// of them: nothing a local run needs can fall through.
func TestTemplateDeclaresWhatFunctionsRead(t *testing.T) {
	read := readEnv(t, repoRoot(t))
	want := slices.Sorted(slices.Values(samlocal.Variables))
	if !slices.Equal(read, want) {
		t.Errorf("the functions read %v; samlocal.Variables says %v", read, want)
	}
	declared := declaredEnv(t)
	if got := slices.Sorted(maps.Keys(declared)); !slices.Equal(got, want) {
		t.Errorf("template.yaml declares %v for the functions; they read %v", got, want)
	}
	file := samlocal.Local("http://127.0.0.1:8000", "games", "")
	if got := slices.Sorted(maps.Keys(file.Parameters)); !slices.Equal(got, want) {
		t.Errorf("the env-vars file sets %v; the functions read %v", got, want)
	}
	// As SAM CLI gives it: the file's values, nothing else of its own.
	if got := file.Environment(declared); !slices.Contains(got, "DYNAMODB_ENDPOINT=http://127.0.0.1:8000") || !slices.Contains(got, "TABLE_NAME=games") {
		t.Errorf("sam local would give the functions %v", got)
	}
	if got := (samlocal.EnvVars{Parameters: map[string]string{"UNDECLARED": "x"}}).Environment(declared); slices.ContainsFunc(got, func(kv string) bool { return strings.HasPrefix(kv, "UNDECLARED=") }) {
		t.Errorf("an undeclared variable reached the functions: %v", got)
	}
}

// readEnv returns, sorted, the environment variables that the code of the
// functions (every package of this module that ./functions/... is built
// from, tests aside) reads with os.Getenv or os.LookupEnv, but the AWS_ ones
// that Lambda sets itself. The name is a string literal or a constant of
// this module; anything else fails the test, since it could not be checked.
func readEnv(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \",\"}}{{end}}", "./functions/...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	type pkg struct {
		dir   string
		files []*ast.File
	}
	pkgs := map[string]*pkg{}
	fset := token.NewFileSet()
	for line := range strings.Lines(string(out)) {
		f := strings.Split(strings.TrimSpace(line), "\t")
		if len(f) != 3 || !strings.HasPrefix(f[0], "citysleeps/") {
			continue
		}
		p := &pkg{dir: f[1]}
		for _, name := range strings.Split(f[2], ",") {
			file, err := parser.ParseFile(fset, filepath.Join(f[1], name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			p.files = append(p.files, file)
		}
		pkgs[f[0]] = p
	}
	if len(pkgs) < 5 {
		t.Fatalf("only %d packages of this module found under the functions", len(pkgs))
	}
	// Every string constant of the module's packages, by path and name.
	consts := map[string]string{}
	for path, p := range pkgs {
		for _, file := range p.files {
			for _, d := range file.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.CONST {
					continue
				}
				for _, spec := range g.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if i < len(vs.Values) {
							if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
								consts[path+"."+name.Name], _ = strconv.Unquote(lit.Value)
							}
						}
					}
				}
			}
		}
	}
	seen := map[string]bool{}
	for path, p := range pkgs {
		for _, file := range p.files {
			imports := map[string]string{} // name in the file → path
			for _, im := range file.Imports {
				ip, _ := strconv.Unquote(im.Path.Value)
				name := ip[strings.LastIndex(ip, "/")+1:]
				if im.Name != nil {
					name = im.Name.Name
				}
				imports[name] = ip
			}
			ast.Inspect(file, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) != 1 {
					return true
				}
				fn, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, isIdent := fn.X.(*ast.Ident); !isIdent || imports[x.Name] != "os" || (fn.Sel.Name != "Getenv" && fn.Sel.Name != "LookupEnv") {
					return true
				}
				var name string
				var found bool
				switch a := call.Args[0].(type) {
				case *ast.BasicLit:
					name, _ = strconv.Unquote(a.Value)
					found = a.Kind == token.STRING
				case *ast.Ident:
					name, found = consts[path+"."+a.Name]
				case *ast.SelectorExpr:
					if x, ok := a.X.(*ast.Ident); ok {
						name, found = consts[imports[x.Name]+"."+a.Sel.Name]
					}
				}
				if !found {
					t.Errorf("%s: an environment variable whose name is not a constant of this module", fset.Position(call.Pos()))
					return true
				}
				if !strings.HasPrefix(name, "AWS_") {
					seen[name] = true
				}
				return true
			})
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

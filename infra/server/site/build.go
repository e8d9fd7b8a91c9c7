package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// The build (issue 28): what a phone fetches on its first seconds. The
// frontend's ES modules, as they are in frontend/js, take a round trip for
// each level of imports, and all of them, every language and every screen,
// come to a phone that shows one of each. Build bundles them with esbuild
// (its Go API: no Node in make run or the deploy): the app and the player's
// screen in one file, beside one file of what they share with the other
// screens; the other screens (screens/others.js) and each language
// (locales/*.js) in files of their own, imported when a page needs them. Every
// file it makes is named by a hash of its content, under Assets: a browser
// and CloudFront keep it for a year (CacheImmutable), and a deploy adds new
// names rather than changing a file a page already runs, so that a page never
// mixes the modules of two versions. index.html, which names them, stays
// where it is, revalidated on each load (CacheRevalidate).

// Assets is the directory of the built files whose names hash their content.
const Assets = "assets/"

// Cache-Control of the built site's files: the hashed ones kept a year
// without asking, the others (index.html, favicon.svg) asked for again each
// time, and a 304 while they are unchanged.
const (
	CacheImmutable  = "public, max-age=31536000, immutable"
	CacheRevalidate = "no-cache"
)

// Entry is the app's module and Style its style sheet, as index.html names
// them in frontend/; the build replaces both names with the hashed files'.
const (
	Entry = "js/app.js"
	Style = "css/app.css"
)

// Built is the site as it is served and deployed: index.html naming the hashed
// files, favicon.svg as it is, and the hashed files under Assets.
type Built struct {
	Files map[string][]byte // by path, as in the site: "index.html", "assets/app-XXXXXXXX.js"
}

// CacheControl is the Cache-Control header of the built file name.
func CacheControl(name string) string {
	if strings.HasPrefix(name, Assets) {
		return CacheImmutable
	}
	return CacheRevalidate
}

// Build bundles the frontend in src (the frontend/ directory). A src without
// Entry has no app to bundle, and builds to nothing (Built is nil, with no
// error): its files are the site as they are.
func Build(src fs.FS) (*Built, error) {
	if _, err := fs.Stat(src, Entry); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	index, err := fs.ReadFile(src, "index.html")
	if err != nil {
		return nil, err
	}
	res := api.Build(api.BuildOptions{
		EntryPoints:       []string{Entry, Style},
		Bundle:            true,
		Splitting:         true,
		Format:            api.FormatESModule,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		Charset:           api.CharsetUTF8,
		LegalComments:     api.LegalCommentsNone,
		EntryNames:        "[name]-[hash]",
		ChunkNames:        "[name]-[hash]",
		AbsWorkingDir:     "/",
		Outdir:            "/" + strings.TrimSuffix(Assets, "/"),
		Write:             false,
		Metafile:          true,
		LogLevel:          api.LogLevelSilent,
		Plugins:           []api.Plugin{fromFS(src)},
	})
	if len(res.Errors) > 0 {
		var msgs []string
		for _, m := range res.Errors {
			where := ""
			if m.Location != nil {
				where = fmt.Sprintf("%s:%d: ", m.Location.File, m.Location.Line)
			}
			msgs = append(msgs, where+m.Text)
		}
		return nil, fmt.Errorf("build the site: %s", strings.Join(msgs, "; "))
	}
	b := &Built{Files: map[string][]byte{}}
	for _, f := range res.OutputFiles {
		b.Files[strings.TrimPrefix(f.Path, "/")] = f.Contents
	}
	var meta struct {
		Outputs map[string]struct {
			EntryPoint string `json:"entryPoint"`
			Imports    []struct {
				Path string `json:"path"`
				Kind string `json:"kind"`
			} `json:"imports"`
		} `json:"outputs"`
	}
	if err := json.Unmarshal([]byte(res.Metafile), &meta); err != nil {
		return nil, fmt.Errorf("build the site: metafile: %w", err)
	}
	var entry, style string
	var preload []string
	for out, o := range meta.Outputs {
		switch o.EntryPoint {
		case "site:" + Entry:
			entry = out
			// The files the app's module imports come with it: the page
			// asks for them beside it, not once it has read it.
			for _, imp := range o.Imports {
				if imp.Kind == "import-statement" {
					preload = append(preload, imp.Path)
				}
			}
		case "site:" + Style:
			style = out
		}
	}
	if entry == "" || style == "" {
		return nil, errors.New("build the site: no app module or style sheet came out")
	}
	slices.Sort(preload)
	links := ""
	for _, p := range preload {
		links += fmt.Sprintf("\n<link rel=\"modulepreload\" href=\"/%s\">", p)
	}
	index, err = swap(index, `href="/`+Style+`"`, `href="/`+style+`"`)
	if err != nil {
		return nil, err
	}
	index, err = swap(index, `<script type="module" src="/`+Entry+`"></script>`, `<script type="module" src="/`+entry+`"></script>`+links)
	if err != nil {
		return nil, err
	}
	if icon, err := fs.ReadFile(src, "favicon.svg"); err == nil {
		b.Files["favicon.svg"] = icon
		// The icon is in the page itself: one request fewer on a phone's
		// first load (img-src allows data: URLs).
		if bytes.Contains(index, []byte(`href="/favicon.svg"`)) {
			index, err = swap(index, `href="/favicon.svg"`, `href="data:image/svg+xml;base64,`+base64.StdEncoding.EncodeToString(icon)+`"`)
			if err != nil {
				return nil, err
			}
		}
	}
	b.Files["index.html"] = index
	return b, nil
}

// swap replaces the one old in index.html with new.
func swap(index []byte, old, new string) ([]byte, error) {
	if n := bytes.Count(index, []byte(old)); n != 1 {
		return nil, fmt.Errorf("build the site: index.html has %d of %s, want one", n, old)
	}
	return bytes.Replace(index, []byte(old), []byte(new), 1), nil
}

// fromFS has esbuild read the modules from src, each by its path in it
// (namespace "site"): relative imports only, none outside src.
func fromFS(src fs.FS) api.Plugin {
	return api.Plugin{
		Name: "site",
		Setup: func(pb api.PluginBuild) {
			pb.OnResolve(api.OnResolveOptions{Filter: ".*"}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
				p := a.Path
				if a.Kind != api.ResolveEntryPoint {
					if !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") {
						return api.OnResolveResult{}, fmt.Errorf("%s imports %q: only relative imports are bundled", a.Importer, p)
					}
					p = path.Join(path.Dir(a.Importer), p)
				}
				if !fs.ValidPath(p) {
					return api.OnResolveResult{}, fmt.Errorf("%s imports %q, outside the site", a.Importer, a.Path)
				}
				return api.OnResolveResult{Path: p, Namespace: "site"}, nil
			})
			pb.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: "site"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
				data, err := fs.ReadFile(src, a.Path)
				if err != nil {
					return api.OnLoadResult{}, err
				}
				text := string(data)
				loader := api.LoaderJS
				switch path.Ext(a.Path) {
				case ".css":
					loader = api.LoaderCSS
				case ".js":
				default:
					return api.OnLoadResult{}, fmt.Errorf("%s: not a module or a style sheet", a.Path)
				}
				return api.OnLoadResult{Contents: &text, Loader: loader}, nil
			})
		},
	}
}

// etag is a strong ETag of data.
func etag(data []byte) string {
	sum := sha256.Sum256(data)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

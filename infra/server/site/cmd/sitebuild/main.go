// Command sitebuild builds the site (site.Build) from the frontend directory
// into a directory, for `make upload` to copy to the bucket: index.html and
// favicon.svg, and the bundled files named by their content's hash under
// assets/. It prints each file's path and the Cache-Control it is served with.
//
//	go run ./infra/server/site/cmd/sitebuild -o bin/site frontend
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"citysleeps/infra/server/site"
)

func main() {
	out := flag.String("o", "bin/site", "the directory to write the site to (emptied first)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: sitebuild [-o DIR] FRONTEND_DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := build(flag.Arg(0), *out); err != nil {
		fmt.Fprintln(os.Stderr, "sitebuild:", err)
		os.Exit(1)
	}
}

func build(src, out string) error {
	b, err := site.Build(os.DirFS(src))
	if err != nil {
		return err
	}
	if b == nil {
		return fmt.Errorf("%s has no %s to build", src, site.Entry)
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	var names []string
	for name := range b.Files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p := filepath.Join(out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b.Files[name], 0o644); err != nil {
			return err
		}
		fmt.Printf("%-40s %7d  %s\n", name, len(b.Files[name]), site.CacheControl(name))
	}
	return nil
}

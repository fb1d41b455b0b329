// Command chartsources packages the Helm charts that reach this project as Go modules (sources.json) into archives
// beside the vendored ones, byte for byte the same on every machine, so that ../SHA256SUMS can hold their digests
// like any other vendored chart's.
//
// Why not `helm package`: it stamps every entry with the time of packaging, so each run gives a different digest.
// Here entries are sorted, owned by root, 0644 (0755 for directories), dated with the module's commit time, and
// gzip's header carries no name or time; the standard library's compressor is deterministic.
//
// Usage: go run . -out .. [-sums ../SHA256SUMS] [-record]   (test/charts/build.sh runs it)
package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// module is one Go module version that carries a chart directory.
type module struct {
	Module  string `json:"module"`
	Version string `json:"version"`
	// Sum is the module's go.sum hash ("h1:…"); a download with another hash is refused.
	Sum string `json:"sum"`
	// Dir is the chart's directory inside the module.
	Dir string `json:"dir"`
}

// chart is one archive to write: a chart directory, plus subcharts its Chart.yaml names that the module does not
// carry in charts/ (Helm refuses to install a chart whose dependencies are missing, enabled or not).
type chart struct {
	Archive string `json:"archive"`
	module
	Dependencies []module `json:"dependencies"`
}

type download struct {
	Dir   string
	Sum   string
	Info  string
	Error string
}

func main() {
	out := flag.String("out", "..", "folder the archives are written to")
	sums := flag.String("sums", "", "SHA256SUMS file the archives' digests must match (default: <out>/SHA256SUMS)")
	spec := flag.String("sources", "sources.json", "the charts to package")
	record := flag.Bool("record", false, "write the archives and print their SHA256SUMS lines instead of checking them (after changing a pin)")
	flag.Parse()
	if *sums == "" {
		*sums = filepath.Join(*out, "SHA256SUMS")
	}
	raw, err := os.ReadFile(*spec)
	check(err)
	var sources struct {
		Charts []chart `json:"charts"`
	}
	check(json.Unmarshal(raw, &sources))
	want := readSums(*sums)
	for _, c := range sources.Charts {
		target := filepath.Join(*out, c.Archive)
		if digestOf(target) == want[c.Archive] && want[c.Archive] != "" {
			fmt.Printf("%s: up to date\n", c.Archive)
			continue
		}
		data, err := pack(c)
		if err != nil {
			fail("%s: %v", c.Archive, err)
		}
		got := digest(data)
		if *record {
			check(os.WriteFile(target, data, 0o644))
			fmt.Printf("%s  %s\n", got, c.Archive)
			continue
		}
		if got != want[c.Archive] {
			fail("%s: packaged with digest %s, but %s records %q.\n"+
				"If the pin in sources.json changed on purpose, check the new module's contents and record the new digest;\n"+
				"otherwise this Go's compressor writes other bytes than the one that recorded it.", c.Archive, got, *sums, want[c.Archive])
		}
		check(os.WriteFile(target, data, 0o644))
		fmt.Printf("%s: packaged from %s@%s (%s)\n", c.Archive, c.Module, c.Version, got)
	}
}

// pack downloads the chart's module (and its dependencies' modules) and returns the archive's bytes.
func pack(c chart) ([]byte, error) {
	root, modTime, err := fetch(c.module)
	if err != nil {
		return nil, err
	}
	name, version, err := chartIdentity(filepath.Join(root, "Chart.yaml"))
	if err != nil {
		return nil, err
	}
	if want := name + "-" + version + ".tgz"; want != c.Archive {
		return nil, fmt.Errorf("%s@%s %s holds chart %s %s, whose archive is %s", c.Module, c.Version, c.Dir, name, version, want)
	}
	var entries []entry
	if entries, err = collect(root, name); err != nil {
		return nil, err
	}
	for _, d := range c.Dependencies {
		depRoot, _, err := fetch(d)
		if err != nil {
			return nil, err
		}
		depName, _, err := chartIdentity(filepath.Join(depRoot, "Chart.yaml"))
		if err != nil {
			return nil, err
		}
		more, err := collect(depRoot, path.Join(name, "charts", depName))
		if err != nil {
			return nil, err
		}
		entries = append(entries, more...)
	}
	return archive(entries, modTime)
}

// fetch runs `go mod download` for one module version, checks its hash and returns the chart directory and the
// module's commit time.
func fetch(m module) (string, time.Time, error) {
	cmd := exec.Command("go", "mod", "download", "-json", m.Module+"@"+m.Version)
	cmd.Dir = os.TempDir() // outside any module: the download is checked against the checksum database
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	outBytes, _ := cmd.Output()
	var d download
	if err := json.Unmarshal(outBytes, &d); err != nil {
		return "", time.Time{}, fmt.Errorf("go mod download %s@%s: %s", m.Module, m.Version, strings.TrimSpace(string(outBytes)))
	}
	if d.Error != "" {
		return "", time.Time{}, fmt.Errorf("go mod download %s@%s: %s", m.Module, m.Version, d.Error)
	}
	if d.Sum != m.Sum {
		return "", time.Time{}, fmt.Errorf("%s@%s has hash %s; sources.json pins %s", m.Module, m.Version, d.Sum, m.Sum)
	}
	var info struct{ Time time.Time }
	if raw, err := os.ReadFile(d.Info); err == nil {
		_ = json.Unmarshal(raw, &info)
	}
	return filepath.Join(d.Dir, filepath.FromSlash(m.Dir)), info.Time.UTC(), nil
}

// chartIdentity reads the top-level name and version of a Chart.yaml (two plain scalars; no YAML library needed).
func chartIdentity(file string) (string, string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	var name, version string
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		if v, ok := strings.CutPrefix(line, "name:"); ok {
			name = strings.Trim(strings.TrimSpace(v), `"'`)
		}
		if v, ok := strings.CutPrefix(line, "version:"); ok {
			version = strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	if name == "" || version == "" {
		return "", "", fmt.Errorf("%s: no top-level name or version", file)
	}
	return name, version, nil
}

type entry struct {
	name string // path in the archive
	dir  bool
	data []byte
}

// collect lists a chart directory's files under prefix, leaving out what its .helmignore names.
func collect(root, prefix string) ([]entry, error) {
	ignore := readIgnore(filepath.Join(root, ".helmignore"))
	var entries []entry
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if ignored(ignore, rel, d.IsDir()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		entries = append(entries, entry{name: path.Join(prefix, rel), data: data})
		return nil
	})
	return entries, err
}

// readIgnore reads .helmignore's patterns (blank lines and comments dropped).
func readIgnore(file string) []string {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var patterns []string
	for _, l := range strings.Split(string(raw), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			patterns = append(patterns, l)
		}
	}
	return patterns
}

// ignored applies .helmignore's rules as Helm's pkg/ignore documents them: a pattern ending in "/" matches
// directories only; one starting with "/" matches from the chart's root; any other is matched against the base
// name (or the whole path when it contains a "/"). Negations ("!") do not occur in the charts packaged here and
// are refused rather than misread.
func ignored(patterns []string, rel string, isDir bool) bool {
	for _, p := range patterns {
		if strings.HasPrefix(p, "!") {
			fail(".helmignore negation %q is not supported by this packager", p)
		}
		dirOnly := strings.HasSuffix(p, "/")
		p = strings.TrimSuffix(p, "/")
		if dirOnly && !isDir {
			continue
		}
		subject := path.Base(rel)
		if strings.HasPrefix(p, "/") {
			p, subject = strings.TrimPrefix(p, "/"), rel
		} else if strings.Contains(p, "/") {
			subject = rel
		}
		if ok, _ := path.Match(p, subject); ok {
			return true
		}
	}
	return false
}

// archive writes the entries, with their parent directories, as a gzipped tar in a fixed order and form.
func archive(files []entry, modTime time.Time) ([]byte, error) {
	dirs := map[string]bool{}
	for _, f := range files {
		for d := path.Dir(f.name); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	all := append([]entry{}, files...)
	for d := range dirs {
		all = append(all, entry{name: d + "/", dir: true})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].name < all[j].name })
	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	tw := tar.NewWriter(gz)
	for _, e := range all {
		h := &tar.Header{Name: e.name, ModTime: modTime, Format: tar.FormatPAX, Uname: "", Gname: ""}
		if e.dir {
			h.Typeflag, h.Mode = tar.TypeDir, 0o755
		} else {
			h.Typeflag, h.Mode, h.Size = tar.TypeReg, 0o644, int64(len(e.data))
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func readSums(file string) map[string]string {
	sums := map[string]string{}
	raw, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		fail("%v", err)
	}
	for _, l := range strings.Split(string(raw), "\n") {
		if f := strings.Fields(l); len(f) == 2 {
			sums[f[1]] = f[0]
		}
	}
	return sums
}

func digestOf(file string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	return digest(data)
}

func digest(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

func check(err error) {
	if err != nil {
		fail("%v", err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "chartsources: "+format+"\n", args...)
	os.Exit(1)
}

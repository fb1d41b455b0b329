/**
 * The ingress controller's settings and rules (components/ingressController/settings.ts): source locations in every
 * form MARA took, make targets, the NGINX Plus repository certificate and key, checked before anything is created,
 * against real files, and a source build's registry.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigProblem, formatProblem, validateConfig } from "../../config";
import { classifyKicSource, DEFAULTS, KIC_VERSION, kicSourceVersion } from "../../contracts";
import { releaseAdvice } from "../../components/ingressController/settings";
import { aws, fixture } from "../support/config";

let dir: string;
let checkout: string;
let crt: string;
let key: string;
beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-kic-"));
    checkout = path.join(dir, "kubernetes-ingress");
    fs.mkdirSync(path.join(checkout, "build"), { recursive: true });
    fs.writeFileSync(path.join(checkout, "build", "Dockerfile"), "FROM scratch\n");
    crt = path.join(dir, "nginx-repo.crt");
    key = path.join(dir, "nginx-repo.key");
    fs.writeFileSync(crt, "-----BEGIN CERTIFICATE-----\nREPO-CERT\n");
    fs.writeFileSync(key, "-----BEGIN PRIVATE KEY-----\nREPO-KEY\n");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const plusPaths = (c: string, k: string) => ({ "kic:nginx_plus": JSON.stringify({ "kic:cert_path": c, "kic:key_path": k }) });
const problemsOf = (values: Record<string, string>, env: Record<string, string> = {}) => validateConfig(aws(values, { env })).problems;
const only = (values: Record<string, string>, env: Record<string, string> = {}): ConfigProblem => {
    const found = problemsOf(values, env);
    expect(found, found.map(formatProblem).join("\n")).toHaveLength(1);
    return found[0]!;
};

describe("classifyKicSource: every source form MARA's kic:src_url took", () => {
    const base = { home: "/home/dev", cwd: "/srv/project" };
    it.each([
        ["https://github.com/nginx/kubernetes-ingress.git#v5.5.4", { kind: "git", url: "https://github.com/nginx/kubernetes-ingress.git#v5.5.4", ref: "v5.5.4" }],
        ["https://github.com/nginx/kubernetes-ingress.git", { kind: "git", url: "https://github.com/nginx/kubernetes-ingress.git", ref: undefined }],
        ["https://gitlab.example.com/mirrors/kic.git#release-5.5:sub", { kind: "git", url: "https://gitlab.example.com/mirrors/kic.git#release-5.5:sub", ref: "release-5.5" }],
        ["git@github.com:nginx/kubernetes-ingress.git#v5.5.4", { kind: "git", url: "git@github.com:nginx/kubernetes-ingress.git#v5.5.4", ref: "v5.5.4" }],
        ["ssh://git@github.com/nginx/kubernetes-ingress.git", { kind: "git", url: "ssh://git@github.com/nginx/kubernetes-ingress.git", ref: undefined }],
        ["https://github.com/nginx/kubernetes-ingress/archive/refs/tags/v5.5.4.tar.gz", { kind: "git", url: "https://github.com/nginx/kubernetes-ingress.git#v5.5.4", ref: "v5.5.4" }],
        ["https://artifacts.example.com/kic-5.5.4.tgz", { kind: "tarball", url: "https://artifacts.example.com/kic-5.5.4.tgz" }],
        ["/opt/src/kubernetes-ingress", { kind: "directory", path: "/opt/src/kubernetes-ingress", ref: undefined }],
        ["~/kubernetes-ingress", { kind: "directory", path: "/home/dev/kubernetes-ingress", ref: undefined }],
        ["~", { kind: "directory", path: "/home/dev", ref: undefined }],
        ["./vendor/kic", { kind: "directory", path: "/srv/project/vendor/kic", ref: undefined }],
        ["../kic", { kind: "directory", path: "/srv/kic", ref: undefined }],
        ["../kic#v5.5.4", { kind: "directory", path: "/srv/kic", ref: "v5.5.4" }],
        ["..", { kind: "directory", path: "/srv", ref: undefined }],
        [".", { kind: "directory", path: "/srv/project", ref: undefined }],
        ["file://../kic", { kind: "directory", path: "/srv/kic", ref: undefined }],
        ["file:///opt/src/kic#v5.5.4", { kind: "directory", path: "/opt/src/kic", ref: "v5.5.4" }],
        ["file://~/src/kic#5.5.3", { kind: "directory", path: "/home/dev/src/kic", ref: "5.5.3" }],
        // A file URL writes a space as %20 (as url.pathToFileURL does); a plain path with a space is taken as it is.
        ["file:///opt/my%20src/kic%25#v5.5.4", { kind: "directory", path: "/opt/my src/kic%", ref: "v5.5.4" }],
        ["/opt/my src/kic", { kind: "directory", path: "/opt/my src/kic", ref: undefined }],
        ["/opt/100%20/kic", { kind: "directory", path: "/opt/100%20/kic", ref: undefined }],
    ])("%s", (url, source) => {
        expect(classifyKicSource(url, base)).toEqual({ source });
    });

    it.each([
        ["http://example.com/kic.tar.gz", "is a plain http URL; the sources are fetched over https only"],
        ["https://example.com/kic.tar.gz#v5.5.4", "is a tarball URL with a #fragment; a tarball has no refs (name the release in the file, or use the .git URL with #<tag>)"],
        ["https://github.com/nginx/kubernetes-ingress", "is neither a git repository (ending in .git) nor a tarball (ending in .tar.gz, .tgz, .tar, .tar.bz2 or .tar.xz)"],
        ["/tmp/kic.tar.gz", "is a local tarball; Docker builds from a directory or a URL, so extract it and give the directory"],
        ["kubernetes-ingress", "is not a git URL, an https tarball URL or a local directory"],
        // Look-alikes of local paths, at the edge of each form.
        ["..kic", "is not a git URL, an https tarball URL or a local directory"],
        [".kic", "is not a git URL, an https tarball URL or a local directory"],
        ["~other/kic", "is not a git URL, an https tarball URL or a local directory"],
        ["ftp://example.com/kic.git", "is not a git URL, an https tarball URL or a local directory"],
        ["file:///opt/100%/kic", "is a file:// URL with a broken %-escape (a space is %20, a % itself %25)"],
    ])("refuses %s", (url, problem) => {
        expect(classifyKicSource(url)).toEqual({ problem });
    });

    it.each([
        ["https://x/kic.git#v5.5.4", "5.5.4"],
        ["https://x/kic.git#5.5.4-rc.1", "5.5.4-rc.1"],
        ["https://x/kic.git#main", undefined],
        ["https://x/kubernetes-ingress-5.5.3.tar.gz", "5.5.3"],
        ["https://x/v5.5.4-rc.1.tar.gz", "5.5.4-rc.1"],
        ["https://x/nightly.tar.gz", undefined],
        ["/src/kic#v5.5.2", "5.5.2"],
        ["/src/kic", undefined],
    ])("the version %s names is %s", (url, version) => {
        const c = classifyKicSource(url);
        expect("source" in c && kicSourceVersion(c.source)).toBe(version);
    });

    it("builds by default the release the default image is", () => {
        expect(DEFAULTS.ingressControllerImage.source).toBe(`https://github.com/nginx/kubernetes-ingress.git#v${KIC_VERSION}`);
    });
});

describe("mara:ingressSrcUrl (kic:src_url)", () => {
    it("keeps MARA's git URL and the version it names, and refuses a release the pinned chart cannot run", () => {
        const cfg = validateConfig(aws({ "kic:image_origin": "source", "kic:src_url": "https://github.com/nginxinc/kubernetes-ingress.git#v5.5.3" })).config!;
        expect(cfg.kic).toMatchObject({ source: "https://github.com/nginxinc/kubernetes-ingress.git#v5.5.3", version: "5.5.3" });
        // MARA's example names v2.2.0, which lacks flags nginx-ingress 2.6.4 renders: the build would crash-loop.
        expect(only({ "kic:image_origin": "source", "kic:src_url": "https://github.com/nginxinc/kubernetes-ingress.git#v2.2.0" })).toMatchObject({
            key: "kic:src_url",
            problem: expect.stringMatching(/^builds a controller that does not run with the chart: controller 2\.2\.0 is outside 5\.5\.0 to 5\.5\.x/),
            fix: "build the v5.5.4 release: pulumi config set kic:src_url 'https://github.com/nginxinc/kubernetes-ingress.git#v5.5.4'",
        });
    });

    it("splits file://…#ref into the directory and the version, and makes the directory absolute", () => {
        const cfg = validateConfig(aws({ "kic:image_origin": "source", "kic:src_url": `file://${checkout}#v5.5.4` })).config!;
        expect(cfg.kic).toMatchObject({ sourceUrl: `file://${checkout}#v5.5.4`, source: checkout, version: "5.5.4" });
    });

    it("resolves a relative directory against the project directory", () => {
        const rel = path.relative(process.cwd(), checkout);
        const cfg = validateConfig(aws({ "kic:image_origin": "source", "kic:src_url": `./${rel}` })).config!;
        expect(cfg.kic.source).toBe(checkout);
    });

    it("checks a directory written ../ as it checks ./ (relative to the project directory)", () => {
        const missing = `../mara-no-such-checkout-${path.basename(dir)}`;
        const p = only({ "kic:image_origin": "source", "kic:src_url": `${missing}#v5.5.4` });
        expect(p.problem).toBe(`names ${path.resolve(missing)}, which does not exist on this machine`);
        expect(only({ "kic:image_origin": "source", "kic:src_url": `./${missing.slice(3)}` }).problem).toBe(`names ${path.resolve(missing.slice(3))}, which does not exist on this machine`);
    });

    it("names a directory that does not exist, and how to get the sources", () => {
        const p = only({ "kic:image_origin": "source", "kic:src_url": `${dir}/missing#v5.5.4` });
        expect(formatProblem(p)).toBe(
            `kic:src_url = "${dir}/missing#v5.5.4": names ${dir}/missing, which does not exist on this machine. Allowed: a git URL (https://…/kubernetes-ingress.git#v5.5.4, ssh://…, git@host:org/repo.git#<ref>), an https tarball URL (…tar.gz) whose root holds the sources, or a local directory (/abs/path, ~/path, ./relative, file:///path, optionally #<version>). Fix: git clone --branch v5.5.4 https://github.com/nginx/kubernetes-ingress.git ${dir}/missing (or pulumi config set kic:src_url 'https://github.com/nginx/kubernetes-ingress.git#v5.5.4' to let BuildKit fetch it)`,
        );
    });

    it("refuses a directory that is not a kubernetes-ingress checkout, and a file", () => {
        expect(only({ "kic:image_origin": "source", "kic:src_url": dir }).problem).toBe(`names ${dir}, which has no build/Dockerfile (not an nginx/kubernetes-ingress checkout)`);
        expect(only({ "kic:image_origin": "source", "kic:src_url": crt }).problem).toBe(`names ${crt}, which is a file, not a directory`);
    });

    it("checks the form even when the image is pulled, so switching to source later cannot surprise", () => {
        expect(only({ "kic:src_url": "http://example.com/kic.tar.gz" })).toMatchObject({ key: "kic:src_url", problem: "is a plain http URL; the sources are fetched over https only" });
        // A missing local directory matters only when building.
        expect(problemsOf({ "kic:src_url": `${dir}/missing` })).toEqual([]);
    });
});

describe("mara:ingressMakeTarget (kic:make_target)", () => {
    it("names MARA's retired targets and what replaced them", () => {
        expect(formatProblem(only({ "kic:image_origin": "source", "kic:make_target": "debian-image-opentracing" }))).toMatch(
            /^kic:make_target = "debian-image-opentracing": no longer exists in nginx\/kubernetes-ingress; debian-image replaced it\. Allowed: one of debian-image, alpine-image, ubi-image, debian-image-plus, .*\. Fix: pulumi config set kic:make_target debian-image$/,
        );
    });

    it("ignores the target when the image is pulled", () => {
        expect(problemsOf({ "kic:make_target": "openshift-image" })).toEqual([]);
    });
});

describe("NGINX Plus source builds: the repository certificate and key", () => {
    const plus = { "kic:image_origin": "source", "kic:make_target": "debian-image-plus" };

    it("takes MARA's kic:nginx_plus paths as BuildKit secret files, with no warning", () => {
        const result = validateConfig(aws({ ...plus, ...plusPaths(crt, key) }));
        expect(result.problems).toEqual([]);
        expect(result.warnings.join("\n")).not.toMatch(/no effect/);
        expect(result.config!.kic.nginxRepo).toEqual({ certificate: { file: crt }, key: { file: key } });
    });

    it("expands ~ and resolves relative paths against the project directory", () => {
        const rel = path.relative(process.cwd(), crt);
        const cfg = validateConfig(aws({ ...plus, "mara:ingressNginxPlusCertPath": rel, "mara:ingressNginxPlusKeyPath": key })).config!;
        expect(cfg.kic.nginxRepo).toEqual({ certificate: { file: crt }, key: { file: key } });
    });

    it("says which file is missing or not a file, before anything is created", () => {
        const found = problemsOf({ ...plus, ...plusPaths(`${dir}/nope.crt`, dir) }).map(formatProblem);
        expect(found).toEqual([
            `kic:nginx_plus.kic:cert_path = "${dir}/nope.crt": does not exist on this machine. Allowed: the path of nginx-repo.crt, downloaded from MyF5 (absolute, or relative to the project directory). Fix: download it from MyF5, then pulumi config set mara:ingressNginxPlusCertPath '<path of nginx-repo.crt>'`,
            `kic:nginx_plus.kic:key_path = "${dir}": is a directory, not a file. Allowed: the path of nginx-repo.key, downloaded from MyF5 (absolute, or relative to the project directory). Fix: download it from MyF5, then pulumi config set mara:ingressNginxPlusKeyPath '<path of nginx-repo.key>'`,
        ]);
    });

    it("a loop of links, a named pipe, a link to nothing: each named for what it is, never 'does not exist' for a loop", () => {
        const loop = path.join(dir, "loop.crt");
        fs.symlinkSync("loop2.crt", loop);
        fs.symlinkSync("loop.crt", path.join(dir, "loop2.crt"));
        const pipe = path.join(dir, "pipe key");
        execFileSync("mkfifo", [pipe]);
        const found = problemsOf({ ...plus, ...plusPaths(loop, pipe) }).map(formatProblem);
        expect(found).toEqual([
            `kic:nginx_plus.kic:cert_path = "${loop}": names a path that is a loop of symbolic links (ELOOP): following them never reaches a file. Allowed: the path of nginx-repo.crt, downloaded from MyF5 (absolute, or relative to the project directory). Fix: see where the links point with ls -l ${loop}, and point the link at the real file or folder; or download it from MyF5, then pulumi config set mara:ingressNginxPlusCertPath '<path of nginx-repo.crt>'`,
            `kic:nginx_plus.kic:key_path = "${pipe}": names a path that is a named pipe, not a regular file. Allowed: the path of nginx-repo.key, downloaded from MyF5 (absolute, or relative to the project directory). Fix: point it at a regular file (a pipe or device cannot be read like one); or download it from MyF5, then pulumi config set mara:ingressNginxPlusKeyPath '<path of nginx-repo.key>'`,
        ]);
        const dangling = path.join(dir, "dangling.crt");
        fs.symlinkSync(path.join(dir, "gone.crt"), dangling);
        expect(formatProblem(problemsOf({ ...plus, ...plusPaths(dangling, key) })[0]!)).toContain(`names a path that is a symbolic link to ${path.join(dir, "gone.crt")}, which does not exist`);
    });

    it("paths with a space: used as given", () => {
        const spaced = path.join(dir, "my certs", "nginx-repo.crt");
        fs.mkdirSync(path.dirname(spaced));
        fs.copyFileSync(crt, spaced);
        expect(problemsOf({ ...plus, ...plusPaths(spaced, key) })).toEqual([]);
    });

    it("falls back to the NGINX_REPO_CRT and NGINX_REPO_KEY environment variables, passing their names only", () => {
        const result = validateConfig(aws(plus, { env: { NGINX_REPO_CRT: "CERT-CONTENT", NGINX_REPO_KEY: "KEY-CONTENT" } }));
        expect(result.problems).toEqual([]);
        expect(result.config!.kic.nginxRepo).toEqual({ certificate: { env: "NGINX_REPO_CRT" }, key: { env: "NGINX_REPO_KEY" } });
        expect(JSON.stringify(result.config!.kic)).not.toMatch(/CERT-CONTENT|KEY-CONTENT/);
    });

    it("needs both, and says the two ways to give them", () => {
        const p = only(plus, { NGINX_REPO_CRT: "only the certificate" });
        expect(formatProblem(p)).toBe(
            'kic:make_target = "debian-image-plus": builds NGINX Plus, which needs the NGINX Plus repository certificate and key, and neither their files nor the environment variables are set. Allowed: mara:ingressNginxPlusCertPath and mara:ingressNginxPlusKeyPath (MARA\'s kic:nginx_plus fields kic:cert_path and kic:key_path) naming nginx-repo.crt and nginx-repo.key from MyF5, or the environment variables NGINX_REPO_CRT and NGINX_REPO_KEY holding them. Fix: pulumi config set mara:ingressNginxPlusCertPath /etc/ssl/nginx/nginx-repo.crt && pulumi config set mara:ingressNginxPlusKeyPath /etc/ssl/nginx/nginx-repo.key',
        );
    });

    it("names a kic:nginx_plus field spelled without MARA's namespace, instead of reporting no certificate or key", () => {
        const found = problemsOf({ ...plus, "kic:nginx_plus": JSON.stringify({ cert_path: crt, key_path: key }) }).map(formatProblem);
        expect(found.slice(0, 2)).toEqual([
            "kic:nginx_plus.cert_path: is not a field of kic:nginx_plus, so it is ignored. Allowed: the fields kic:key_path and kic:cert_path (MARA writes them with the namespace). Fix: rename it kic:cert_path, or use pulumi config set mara:ingressNginxPlusCertPath /etc/ssl/nginx/nginx-repo.crt",
            "kic:nginx_plus.key_path: is not a field of kic:nginx_plus, so it is ignored. Allowed: the fields kic:key_path and kic:cert_path (MARA writes them with the namespace). Fix: rename it kic:key_path, or use pulumi config set mara:ingressNginxPlusKeyPath /etc/ssl/nginx/nginx-repo.key",
        ]);
        // A field next to the right ones is named too, whatever the origin.
        expect(problemsOf({ "kic:nginx_plus": JSON.stringify({ "kic:cert_path": crt, "kic:key_path": key, "kic:jwt_path": "/x" }) }).map(formatProblem)).toEqual([
            "kic:nginx_plus.kic:jwt_path: is not a field of kic:nginx_plus, so it is ignored. Allowed: the fields kic:key_path and kic:cert_path (MARA writes them with the namespace). Fix: rename it kic:key_path, or use pulumi config set mara:ingressNginxPlusKeyPath /etc/ssl/nginx/nginx-repo.key",
        ]);
    });

    it("refuses a kic:nginx_plus that is not an object, which MARA never read either", () => {
        expect(formatProblem(only({ "kic:nginx_plus": "/etc/ssl/nginx" }))).toBe(
            'kic:nginx_plus = "/etc/ssl/nginx": is not an object, so none of its fields (kic:key_path, kic:cert_path) is read. Allowed: an object with the fields kic:key_path and kic:cert_path, as in MARA\'s example stack file: kic:nginx_plus: { kic:key_path: <path>, kic:cert_path: <path> }. Fix: pulumi config set mara:ingressNginxPlusKeyPath /etc/ssl/nginx/nginx-repo.key && pulumi config set mara:ingressNginxPlusCertPath /etc/ssl/nginx/nginx-repo.crt',
        );
    });

    it("accepts MARA's example file, whose paths do not exist, while it pulls a published image", () => {
        const result = validateConfig(aws(plusPaths("/etc/ssl/nginx/nginx-repo.crt", "/etc/ssl/nginx/nginx-repo.key")));
        expect(result.problems).toEqual([]);
        expect(result.config!.kic.nginxRepo).toBeUndefined();
    });

    it("needs the JWT to pull an image from private-registry.nginx.com", () => {
        expect(formatProblem(only({ "kic:image_name": "private-registry.nginx.com/nginx-ic/nginx-plus-ingress:5.5.4" }))).toBe(
            'kic:image_name = "private-registry.nginx.com/nginx-ic/nginx-plus-ingress:5.5.4": is pulled from private-registry.nginx.com, which needs the NGINX Plus JWT, and mara:nginxJwt is not set. Allowed: an image from a public registry, or an image from private-registry.nginx.com together with the JWT from MyF5 in mara:nginxJwt. Fix: pulumi config set --secret mara:nginxJwt \'<jwt>\'',
        );
        // A look-alike host is not NGINX's registry.
        expect(problemsOf({ "kic:image_name": "private-registry.nginx.com.example.org/nginx-plus-ingress:5.5.4" })).toEqual([]);
    });
});

describe("NGINX Plus keys a stack reads nowhere", () => {
    const JWT = "header.payload.signature";
    const notUsed = (w: readonly string[]) => w.filter((x) => / (is|are) not used: /.test(x));

    it("a JWT beside an open-source image that is pulled: named as not used, unchecked, and handed to nothing", () => {
        for (const jwt of [JWT, "", "  "]) {
            const result = validateConfig(aws({ "mara:nginxJwt": jwt }, { secret: ["mara:nginxJwt"] }));
            expect(result.problems.map(formatProblem), JSON.stringify(jwt)).toEqual([]);
            expect(notUsed(result.warnings)).toEqual([
                "mara:nginxJwt is not used: this stack pulls nginx/nginx-ingress:5.5.4 and does not run NGINX Plus (mara:ingressEnablePlus is false), so nothing pulls from private-registry.nginx.com or needs the license, and the JWT is not checked and reaches no Secret. " +
                    "Remove it with pulumi config rm mara:nginxJwt, or keep it for NGINX Plus (mara:ingressImageName private-registry.nginx.com/nginx-ic/nginx-plus-ingress:5.5.4 and mara:ingressEnablePlus true).",
            ]);
            expect(result.config!.kic.nginxJwt).toBeUndefined();
        }
    });

    it("a JWT is read to pull from NGINX's registry, and as the license of Plus mode: then it is checked and kept", async () => {
        for (const values of [
            { "mara:ingressImageName": "private-registry.nginx.com/nginx-ic/nginx-plus-ingress:5.5.4" } as Record<string, string>,
            { "kic-helm:nginx_repository": "private-registry.nginx.com/nginx-ic/nginx-plus-ingress", "kic-helm:nginx_tag": "5.5.4" },
            { "mara:ingressEnablePlus": "true", "mara:ingressImageName": "registry.example.com/nginx-plus-ingress:5.5.4" },
        ]) {
            const result = validateConfig(aws({ ...values, "mara:nginxJwt": JWT }, { secret: ["mara:nginxJwt"] }));
            expect(result.problems.map(formatProblem), JSON.stringify(values)).toEqual([]);
            expect(notUsed(result.warnings)).toEqual([]);
            expect(result.config!.kic.nginxJwt).toBeDefined();
            expect(only({ ...values, "mara:nginxJwt": "" }).problem).toBe("is empty");
        }
    });

    it("a Plus source build with Plus mode off reads the repository files, not the JWT", () => {
        const result = validateConfig(aws({ "kic:image_origin": "source", "kic:make_target": "debian-image-plus", "mara:nginxJwt": JWT }, { secret: ["mara:nginxJwt"], env: { NGINX_REPO_CRT: "c", NGINX_REPO_KEY: "k" } }));
        expect(result.problems).toEqual([]);
        expect(notUsed(result.warnings)).toEqual([expect.stringMatching(/^mara:nginxJwt is not used: this stack builds make target debian-image-plus from source and does not run NGINX Plus/)]);
    });

    it("repository paths on a stack that pulls its image, or builds an open-source target: not used, their files unchecked", () => {
        for (const values of [
            { "mara:ingressNginxPlusCertPath": "/nowhere/nginx-repo.crt" } as Record<string, string>,
            { "kic:nginx_plus": JSON.stringify({ "kic:key_path": "/nowhere/k", "kic:cert_path": "/nowhere/c" }) },
            { "kic:image_origin": "source", "kic:make_target": "alpine-image", "mara:ingressNginxPlusKeyPath": "/nowhere/k", "mara:ingressNginxPlusCertPath": "/nowhere/c" },
        ]) {
            const result = validateConfig(aws(values));
            expect(result.problems.map(formatProblem), JSON.stringify(values)).toEqual([]);
            expect(notUsed(result.warnings), JSON.stringify(values)).toHaveLength(1);
            expect(result.config!.kic.nginxRepo).toBeUndefined();
        }
        expect(notUsed(validateConfig(aws(plusPaths("/c", "/k"))).warnings)).toEqual([
            "kic:nginx_plus.kic:cert_path, kic:nginx_plus.kic:key_path are not used: the NGINX Plus repository certificate and key are read only to build an NGINX Plus image from source (mara:ingressImageOrigin source with a Plus make target such as debian-image-plus), " +
                "and this stack pulls nginx/nginx-ingress:5.5.4, so their files are not checked. Remove them with pulumi config rm kic:nginx_plus, or keep them for a Plus source build.",
        ]);
    });

    it("where they are read, a lone path is still refused", () => {
        expect(only({ "kic:image_origin": "source", "kic:make_target": "debian-image-plus", "mara:ingressNginxPlusCertPath": "/c" }).problem).toBe("is not set, but its NGINX Plus partner is");
    });
});

describe("the release a source names: advice in a form the same run accepts", () => {
    it.each([
        ["https://git.example.com/kic.git", "https://git.example.com/kic.git#v5.5.4"],
        ["https://git.example.com/kic.git#v5.4.0:build-context", "https://git.example.com/kic.git#v5.5.4:build-context"],
        ["git@github.com:nginx/kubernetes-ingress.git#main", "git@github.com:nginx/kubernetes-ingress.git#v5.5.4"],
        ["/src/kic", "/src/kic#v5.5.4"],
        ["file:///src/kic#5.4.0", "file:///src/kic#v5.5.4"],
        ["https://example.com/kic-sources.tar.gz", "https://github.com/nginx/kubernetes-ingress.git#v5.5.4"],
        ["https://example.com/kubernetes-ingress-5.4.1.tgz", "https://github.com/nginx/kubernetes-ingress.git#v5.5.4"],
    ])("%s: %s", (location, suggested) => {
        const advice = releaseAdvice(location, KIC_VERSION);
        expect(advice.value).toBe(suggested);
        const classified = classifyKicSource(advice.value, { cwd: "/" });
        expect("source" in classified && kicSourceVersion(classified.source), JSON.stringify(classified)).toBe(KIC_VERSION);
        expect(advice.name).not.toMatch(/tar\.gz#|tgz#/);
    });

    it("the warning for a tarball without a release and the fix for a tarball of an old one suggest nothing the same run refuses", () => {
        const warned = validateConfig(aws({ "kic:image_origin": "source", "kic:src_url": "https://example.com/kic-sources.tar.gz" }));
        const warning = warned.warnings.find((w) => w.includes("names no release"))!;
        expect(warning).toContain("a tarball has no #ref, so name the release in its file name (…-v5.5.4.tar.gz), or build from git: pulumi config set mara:ingressSrcUrl 'https://github.com/nginx/kubernetes-ingress.git#v5.5.4'");
        expect(warning).not.toContain("tar.gz#");
        const refused = only({ "kic:image_origin": "source", "kic:src_url": "https://example.com/kubernetes-ingress-5.4.1.tar.gz" });
        expect(refused.fix).toBe("build the v5.5.4 release: pulumi config set kic:src_url 'https://github.com/nginx/kubernetes-ingress.git#v5.5.4' (a tarball names its release in its file name only)");
        // What each suggests, set, is accepted.
        expect(problemsOf({ "kic:image_origin": "source", "kic:src_url": "https://github.com/nginx/kubernetes-ingress.git#v5.5.4" })).toEqual([]);
    });
});

describe("a source build needs somewhere to push the image", () => {
    const existingCluster = (values: Record<string, string>) => {
        const raw = fixture("mara-kubeconfig");
        return validateConfig({ ...raw, values: { ...raw.values, ...values } });
    };

    it("is refused on an existing cluster without a registry of the stack's own, naming the key and both ways out", () => {
        const problems = existingCluster({ "mara:ingressImageOrigin": "source" }).problems.filter((p) => p.key === "mara:ingressImageOrigin");
        expect(problems.map(formatProblem)).toEqual([
            formatProblem({
                key: "mara:ingressImageOrigin",
                value: "source",
                problem: "builds the image, but an existing cluster has no registry to push it to",
                allowed: "registry (pull the published image), or source together with your own registry (mara:registryServer, mara:registryRepository, mara:registryUsername, mara:registryPassword)",
                fix: "pulumi config set mara:ingressImageOrigin registry, or configure mara:registryServer and the other mara:registry* keys",
            }),
        ]);
    });

    it("is allowed there once the mara:registry* keys name one, and where the image is pulled", () => {
        const registry = { "mara:registryServer": "registry.example.com", "mara:registryRepository": "team/nginx-ingress", "mara:registryUsername": "u", "mara:registryPassword": "p" };
        expect(existingCluster({ "mara:ingressImageOrigin": "source", ...registry }).problems.filter((p) => p.key === "mara:ingressImageOrigin")).toEqual([]);
        expect(existingCluster({ "mara:ingressImageOrigin": "registry" }).problems.filter((p) => p.key === "mara:ingressImageOrigin")).toEqual([]);
    });
});

/**
 * What `mara render` does to the objects so that Argo CD syncs them: Helm hooks rewritten as Argo CD hooks, the
 * Secrets' revision annotation replaced by Reloader's, waves placed by need, YAML that YAML 1.1 readers take as
 * written, and an earlier render's folder replaced without losing the user's own files.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parse } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { SECRETS_REVISION_ANNOTATION } from "../../components/passwordRotation";
import type { KubeObject } from "../../contracts/kubeObject";
import { forArgoCd } from "../../render/hooks";
import { PlacedObject, toYaml } from "../../render/layout";
import { MARKER, writeOutputDir } from "../../render/outputDir";
import { repositorySecretFiles } from "../../render/repositorySecret";
import { RELOADER_SECRETS, restartsForGitOps } from "../../render/podRestarts";
import { readsAsOtherType } from "../../render/safeYaml";
import { syncWaves } from "../../render/waves";

const made: string[] = [];
const tmp = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), "mara-render-gitops-"));
    made.push(d);
    return d;
};
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("Helm hooks for Argo CD", () => {
    const hook = (kind: string, types: string, extra: Record<string, string> = {}): KubeObject => ({
        apiVersion: kind === "Job" ? "batch/v1" : "v1",
        kind,
        metadata: { name: "x", namespace: "prometheus", annotations: { "helm.sh/hook": types, "helm.sh/hook-delete-policy": "before-hook-creation,hook-succeeded", ...extra } },
    });

    it("a pre-install Job runs in the Sync phase (PreSync would run before its Namespace exists), placed by its needs", () => {
        expect(forArgoCd(hook("Job", "pre-install,pre-upgrade", { "helm.sh/hook-weight": "-5" })).metadata!.annotations).toEqual({
            "argocd.argoproj.io/hook": "Sync",
            "argocd.argoproj.io/hook-delete-policy": "BeforeHookCreation,HookSucceeded",
        });
    });

    it("a post-install Job stays PostSync in the wave of its Helm weight; Helm's default delete policy when it names none", () => {
        const job = hook("Job", "post-install,post-upgrade", { "helm.sh/hook-weight": "1" });
        delete job.metadata!.annotations!["helm.sh/hook-delete-policy"];
        expect(forArgoCd(job).metadata!.annotations).toEqual({ "argocd.argoproj.io/hook": "PostSync", "argocd.argoproj.io/hook-delete-policy": "BeforeHookCreation", "argocd.argoproj.io/sync-wave": "1" });
    });

    it("a hook that only exists (a ServiceAccount, a Role) becomes an ordinary object; other hooks stay as Helm wrote them", () => {
        expect(forArgoCd(hook("ServiceAccount", "pre-install,pre-upgrade,post-install,post-upgrade")).metadata!.annotations).toEqual({});
        const test = hook("Pod", "test");
        expect(forArgoCd(test)).toBe(test);
        const plain: KubeObject = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" } };
        expect(forArgoCd(plain)).toBe(plain);
    });
});

describe("restarts on Secret changes under GitOps", () => {
    it("the revision annotation (derived from the Secrets) leaves the pod template; the workload names its Secrets for Reloader", () => {
        const deployment: KubeObject = {
            apiVersion: "apps/v1",
            kind: "Deployment",
            metadata: { name: "frontend", namespace: "bos" },
            spec: { template: { metadata: { labels: { app: "frontend" }, annotations: { [SECRETS_REVISION_ANNOTATION]: "jwt-key=1d72ca151400,demo-login=39ac4a00647d" } }, spec: { containers: [] } } },
        };
        const out = restartsForGitOps(deployment);
        expect(out.metadata!.annotations).toEqual({ [RELOADER_SECRETS]: "demo-login,jwt-key" });
        expect((out.spec as { template: unknown }).template).toEqual({ metadata: { labels: { app: "frontend" } }, spec: { containers: [] } });
        expect(JSON.stringify(out)).not.toMatch(/1d72ca151400|39ac4a00647d/);
        const plain: KubeObject = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "x" }, spec: { template: { metadata: {} } } };
        expect(restartsForGitOps(plain)).toBe(plain);
    });
});

describe("YAML that YAML 1.1 readers take as written", () => {
    it("finds every string a YAML 1.1 or 1.2 reader would read as a boolean, number, null or date", () => {
        for (const s of ["on", "off", "NO", "y", "n", "yes", "True", "1:20", "0x1F", "1_000", "0b101", "0o17", "012", "1e3", ".inf", "~", "null", "2001-12-14", "<<"]) expect(readsAsOtherType(s), s).toBe(true);
        for (const s of ["nginx", "v1", "1.2.3", "on-call", "", "a b", "!~", "http://x", "sha256:00"]) expect(readsAsOtherType(s), s).toBe(false);
    });

    it("quotes them, keys included, so YAML 1.1 and 1.2 read the same values", () => {
        const value = { on: ["on", "off", "NO"], default: "y", port: "8080", text: "on call", version: "1.35", time: "1:20" };
        const text = toYaml(value);
        expect(text).toContain('"on":\n  - "on"\n  - "off"\n  - "NO"');
        expect(parse(text, { version: "1.1" })).toEqual(parse(text));
        expect(parse(text)).toEqual(value);
    });
});

describe("sync waves by need", () => {
    const placed = (object: KubeObject): PlacedObject => ({ object, component: "c", source: `${object.kind} ${object.metadata?.name}`, custom: false });
    const ns = placed({ apiVersion: "v1", kind: "Namespace", metadata: { name: "app" } });
    const crd = placed({ apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "certificates.cert-manager.io" }, spec: { group: "cert-manager.io", scope: "Namespaced", names: { kind: "Certificate", plural: "certificates" } } });
    const cert = placed({ apiVersion: "cert-manager.io/v1", kind: "Certificate", metadata: { name: "serving", namespace: "app" }, spec: { secretName: "serving-cert", issuerRef: { name: "self", kind: "ClusterIssuer" } } });
    const pod = (secret: string) => ({ template: { metadata: { labels: { app: "x" } }, spec: { containers: [{ name: "m", image: "nginx" }], volumes: [{ name: "s", secret: { secretName: secret } }] } } });
    const operator = placed({ apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "operator", namespace: "app" }, spec: pod("serving-cert") });
    const plain = placed({ apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "plain", namespace: "app" }, spec: pod("other") });

    it("start in their kind's band and move to the wave of what they need from a later one", () => {
        const waves = syncWaves([ns, crd, cert, operator, plain]);
        expect([ns, crd, cert, operator, plain].map((p) => waves.get(p))).toEqual([-2, -3, 1, 1, 0]);
    });
});

describe("a second render into the same folder", () => {
    const render = (n: string) => new Map([["a/kustomization.yaml", `# Generated by \`mara render\`\n${n}`], [`a/configmap-${n}.yaml`, `# Generated by \`mara render\`\n${n}`], ["kustomization.yaml", n]]);

    it("replaces what the render wrote and keeps every file it did not write", () => {
        const dir = path.join(tmp(), "out");
        writeOutputDir(dir, render("one"), "first\n");
        fs.writeFileSync(path.join(dir, "README.md"), "mine");
        fs.mkdirSync(path.join(dir, "argocd"));
        fs.writeFileSync(path.join(dir, "argocd", "app.yaml"), "mine too");
        fs.writeFileSync(path.join(dir, "a", "notes.txt"), "and this");
        writeOutputDir(dir, render("two"), "second\n");
        const files = (d: string, rel = ""): string[] => fs.readdirSync(path.join(d, rel), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(d, path.join(rel, e.name)) : [path.join(rel, e.name)])).sort();
        expect(files(dir)).toEqual([MARKER, "README.md", "a/configmap-two.yaml", "a/kustomization.yaml", "a/notes.txt", "argocd/app.yaml", "kustomization.yaml"]);
        expect(fs.readFileSync(path.join(dir, "README.md"), "utf8")).toBe("mine");
        expect(fs.readFileSync(path.join(dir, MARKER), "utf8")).toContain("second\n");
    });

    it("refuses to overwrite a file of the user's with one it writes, leaving the folder as it was", () => {
        const dir = path.join(tmp(), "out");
        writeOutputDir(dir, render("one"), "first\n");
        fs.writeFileSync(path.join(dir, "a", "configmap-two.yaml"), "mine");
        expect(() => writeOutputDir(dir, render("two"), "second\n")).toThrow(`holds a/configmap-two.yaml, which mara render did not write and would now overwrite`);
        expect(fs.readFileSync(path.join(dir, "a", "configmap-two.yaml"), "utf8")).toBe("mine");
        expect(fs.existsSync(path.join(dir, "a", "configmap-one.yaml"))).toBe(true);
    });

    /** Every entry under a folder, links not followed, with what each is. */
    const entries = (d: string, rel = ""): string[] =>
        fs
            .readdirSync(path.join(d, rel), { withFileTypes: true })
            .flatMap((e) => (e.isDirectory() ? entries(d, path.join(rel, e.name)) : [`${path.join(rel, e.name)}${e.isSymbolicLink() ? ` -> ${fs.readlinkSync(path.join(d, rel, e.name))}` : ""}`]))
            .sort();

    it("with links of the user's in it, to a folder outside, to a file, to nothing and in a loop: the render is replaced, each link kept as a link, nothing outside touched", () => {
        const base = tmp();
        const dir = path.join(base, "out");
        writeOutputDir(dir, render("one"), "first\n");
        // Outside the render: a folder and a file a link points to, which must stay as they are.
        fs.mkdirSync(path.join(base, "shared"));
        fs.writeFileSync(path.join(base, "shared", "keep.txt"), "outside");
        fs.writeFileSync(path.join(base, "notes.md"), "outside too");
        fs.symlinkSync(path.join(base, "shared"), path.join(dir, "shared"));
        fs.symlinkSync("../../shared", path.join(dir, "a", "relative-shared"));
        fs.symlinkSync(path.join(base, "notes.md"), path.join(dir, "notes.md"));
        fs.symlinkSync(path.join(base, "nowhere"), path.join(dir, "dangling"));
        fs.symlinkSync("loop", path.join(dir, "loop"));
        writeOutputDir(dir, render("two"), "second\n");
        expect(entries(dir)).toEqual([
            MARKER,
            "a/configmap-two.yaml",
            "a/kustomization.yaml",
            "a/relative-shared -> ../../shared",
            `dangling -> ${path.join(base, "nowhere")}`,
            "kustomization.yaml",
            "loop -> loop",
            `notes.md -> ${path.join(base, "notes.md")}`,
            `shared -> ${path.join(base, "shared")}`,
        ]);
        // The folder and the file the links point to are untouched, and nothing else was left beside the render.
        expect(entries(base)).toEqual(["notes.md", "shared/keep.txt", ...entries(dir).map((e) => `out/${e}`)].sort());
        expect(fs.readFileSync(path.join(base, "shared", "keep.txt"), "utf8")).toBe("outside");
        // And a third render does the same.
        writeOutputDir(dir, render("three"), "third\n");
        expect(entries(dir)).toContain("a/relative-shared -> ../../shared");
        expect(fs.readFileSync(path.join(base, "shared", "keep.txt"), "utf8")).toBe("outside");
    });

    it("a link put in place of a file or a folder the render wrote is the render's: removed, never followed, and the render written there", () => {
        const base = tmp();
        const dir = path.join(base, "out");
        writeOutputDir(dir, render("one"), "first\n");
        fs.mkdirSync(path.join(base, "elsewhere"));
        fs.writeFileSync(path.join(base, "elsewhere", "configmap-one.yaml"), "not the render's");
        // The component folder `a` replaced by a link to a folder outside, and the root kustomization by a link to a file.
        fs.rmSync(path.join(dir, "a"), { recursive: true });
        fs.symlinkSync(path.join(base, "elsewhere"), path.join(dir, "a"));
        fs.rmSync(path.join(dir, "kustomization.yaml"));
        fs.symlinkSync(path.join(base, "elsewhere", "configmap-one.yaml"), path.join(dir, "kustomization.yaml"));
        writeOutputDir(dir, render("two"), "second\n");
        expect(entries(dir)).toEqual([MARKER, "a/configmap-two.yaml", "a/kustomization.yaml", "kustomization.yaml"]);
        expect(fs.readFileSync(path.join(dir, "kustomization.yaml"), "utf8")).toBe("two");
        expect(entries(path.join(base, "elsewhere"))).toEqual(["configmap-one.yaml"]);
        expect(fs.readFileSync(path.join(base, "elsewhere", "configmap-one.yaml"), "utf8")).toBe("not the render's");
    });

    it("refuses a link of the user's where the new render writes a folder, and a pipe it cannot copy, leaving everything as it was", () => {
        const base = tmp();
        const dir = path.join(base, "out");
        writeOutputDir(dir, render("one"), "first\n");
        fs.mkdirSync(path.join(base, "elsewhere"));
        fs.symlinkSync(path.join(base, "elsewhere"), path.join(dir, "b"));
        const withB = new Map([...render("two"), ["b/kustomization.yaml", "b"]]);
        expect(() => writeOutputDir(dir, withB, "second\n")).toThrow("holds b, which mara render did not write and would now overwrite");
        expect(fs.readlinkSync(path.join(dir, "b"))).toBe(path.join(base, "elsewhere"));
        expect(fs.readdirSync(path.join(base, "elsewhere"))).toEqual([]);
        fs.rmSync(path.join(dir, "b"));
        execFileSync("mkfifo", [path.join(dir, "pipe")]);
        expect(() => writeOutputDir(dir, render("two"), "second\n")).toThrow("holds pipe, which is neither a file nor a link (a pipe, a socket or a device)");
        expect(fs.existsSync(path.join(dir, "a", "configmap-one.yaml"))).toBe(true);
        expect(fs.readdirSync(base).sort()).toEqual(["elsewhere", "out"]);
    });

    it("a folder an older render wrote (a marker without the list): its files are known by their header and names", () => {
        const dir = path.join(tmp(), "out");
        fs.mkdirSync(path.join(dir, "a"), { recursive: true });
        for (const [f, t] of render("one")) fs.writeFileSync(path.join(dir, f), t);
        fs.writeFileSync(path.join(dir, MARKER), "Written by mara render from stack \"x\". The next render replaces this whole folder.\n");
        fs.writeFileSync(path.join(dir, "mine.yaml"), "kind: ConfigMap\n");
        writeOutputDir(dir, render("two"), "second\n");
        expect(fs.existsSync(path.join(dir, "mine.yaml"))).toBe(true);
        expect(fs.existsSync(path.join(dir, "a", "configmap-one.yaml"))).toBe(false);
    });
});

describe("Argo CD's repository Secret from the store", () => {
    const vault = { mode: "external" as const, store: "mara", storeKind: "ClusterSecretStore" as const, provider: "vault" as const, remoteKeyPrefix: "mara/" };

    it("an https URL: username and password by reference, the URL as written, Argo CD's label on the Secret", () => {
        const { files, entries } = repositorySecretFiles("https://git.example.com/o/r.git", vault, "# h\n");
        expect([...files.keys()].sort()).toEqual(["argocd/repository/externalsecret-mara-repository.yaml", "argocd/repository/kustomization.yaml"]);
        const es = parse(files.get("argocd/repository/externalsecret-mara-repository.yaml")!) as { spec: { target: { name: string; template: { data: Record<string, string>; metadata: { labels: Record<string, string> } } }; data: { secretKey: string; remoteRef: { key: string; property: string } }[] } };
        expect(es.spec.target.name).toBe("mara-repository");
        expect(es.spec.target.template.metadata.labels["argocd.argoproj.io/secret-type"]).toBe("repository");
        expect(es.spec.target.template.data).toEqual({ type: "git", url: "https://git.example.com/o/r.git", username: "{{ .username }}", password: "{{ .password }}" });
        expect(es.spec.data.map((d) => `${d.secretKey} ${d.remoteRef.key} ${d.remoteRef.property}`)).toEqual(["username mara/argocd/mara-repository username", "password mara/argocd/mara-repository password"]);
        expect(entries.map((e) => `${e.remoteKey} ${e.namespace}/${e.secret} ${e.key}`)).toEqual(["mara/argocd/mara-repository argocd/mara-repository username", "mara/argocd/mara-repository argocd/mara-repository password"]);
    });

    it("an SSH URL: the key by reference; a prefix whose key the provider cannot hold is refused", () => {
        const es = parse(repositorySecretFiles("git@git.example.com:o/r.git", vault, "").files.get("argocd/repository/externalsecret-mara-repository.yaml")!) as { spec: { target: { template: { data: Record<string, string> } } } };
        expect(es.spec.target.template.data).toEqual({ type: "git", url: "git@git.example.com:o/r.git", sshPrivateKey: "{{ .sshPrivateKey }}" });
        // Google's secret IDs hold at most 255 characters: a prefix that leaves room for `ns_name` but not for `argocd_mara-repository`.
        const gcp = { ...vault, provider: "gcp-secret-manager" as const, remoteKeyPrefix: `${"p".repeat(240)}_` };
        expect(() => repositorySecretFiles("https://git.example.com/o/r.git", gcp, "")).toThrow("the secret store cannot hold Argo CD's repository Secret under its remote key");
        expect(() => repositorySecretFiles("https://git.example.com/o/r.git", { ...gcp, remoteKeyPrefix: `${"p".repeat(232)}_` }, "")).not.toThrow();
    });
});


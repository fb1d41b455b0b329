/**
 * `mara render` end to end, in-process: what it refuses before rendering anything (no way to write Secrets, a
 * folder that is not an earlier render, placeholders without --allow-placeholders), what it writes, and how it
 * replaces an earlier render. The manifests themselves are checked in test/render/manifests.test.ts.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parse, stringify } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import type { KubeObject } from "../../contracts/kubeObject";
import { PLACEHOLDER_PATTERN } from "../../render/deployValues";
import { MARKER } from "../../render/outputDir";
import { remoteKeyPrefixProblem } from "../../render/secrets";
import { runMara } from "./support/io";

const FIXTURES = path.join(__dirname, "..", "fixtures");
const fixture = (name: string) => path.join(FIXTURES, `Pulumi.${name}.yaml`);
const OUTPUTS = path.join(FIXTURES, "render", "outputs.minimal-aws.json");
const made: string[] = [];
const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-render-cli-"));
    made.push(dir);
    return dir;
};
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
/** Every file under a folder. */
function* files(dir: string): Generator<string> {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) yield* files(path.join(dir, e.name));
        else yield path.join(dir, e.name);
    }
}

describe("mara render refuses before rendering", () => {
    it("without --secret-store or --secrets=omit: Secrets are never written in plain text", async () => {
        const dir = tmp();
        const r = await runMara(["render", "--config-file", fixture("mara-lke"), "--out", "out"], { cwd: dir });
        expect(r.code).toBe(2);
        expect(r.stderr).toContain("mara: Secrets are never written in plain text: give --secret-store NAME");
        expect(r.stderr).toContain("or --secrets=omit");
        expect(fs.existsSync(path.join(dir, "out"))).toBe(false);
    }, 120_000);

    it("with both --secret-store and --secrets=omit, or an unknown mode or store kind", async () => {
        const base = ["render", "--config-file", fixture("mara-lke"), "--out", "out"];
        expect((await runMara([...base, "--secret-store", "vault", "--secrets", "omit"], { cwd: tmp() })).stderr).toContain("give either --secret-store NAME or --secrets=omit, not both");
        const mode = await runMara([...base, "--secrets", "plain"], { cwd: tmp() });
        expect(mode.code).toBe(2);
        expect(mode.stderr).toContain(`the only mode is "omit" (for ExternalSecrets give --secret-store NAME), not "plain"`);
        const kind = await runMara([...base, "--secret-store", "vault", "--secret-store-kind", "Vault"], { cwd: tmp() });
        expect(kind.code).toBe(2);
        expect(kind.stderr).toContain(`must be SecretStore or ClusterSecretStore, not "Vault"`);
    });

    it("with a store but not its provider (each names and reads its entries differently), an unknown provider, or a prefix the provider cannot hold", async () => {
        const base = ["render", "--config-file", fixture("mara-lke"), "--out", "out", "--secret-store", "mara"];
        const none = await runMara(base, { cwd: tmp() });
        expect(none.code).toBe(2);
        expect(none.stderr).toContain("--secret-store needs --secret-store-provider (vault, aws-secrets-manager, aws-parameter-store, gcp-secret-manager, pulumi)");
        const unknown = await runMara([...base, "--secret-store-provider", "azure"], { cwd: tmp() });
        expect(unknown.code).toBe(2);
        expect(unknown.stderr).toContain(`must be one of vault, aws-secrets-manager, aws-parameter-store, gcp-secret-manager, pulumi, not "azure"`);
        const prefix = await runMara([...base, "--secret-store-provider", "aws-parameter-store", "--remote-key-prefix", "mara/"], { cwd: tmp() });
        expect(prefix.code).toBe(2);
        expect(prefix.stderr).toContain(`--remote-key-prefix mara/: remote keys such as "mara/ns/name" is not a valid aws-parameter-store name: a leading '/'`);
    });

    it("with the store's kind, provider or prefix but no --secret-store (they would do nothing), or beside --secrets=omit", async () => {
        const base = ["render", "--config-file", fixture("mara-lke"), "--out", "out"];
        const cases: [string[], string][] = [
            [["--secret-store-provider", "vault", "--secrets", "omit"], "mara: --secret-store-provider vault describes the store of --secret-store, which is not given (--secrets=omit writes no ExternalSecret), so it would do nothing. Fix: add --secret-store NAME (the External Secrets Operator store each Secret is read from) instead of --secrets=omit, or leave it out"],
            [["--secret-store-provider", "vault"], "mara: --secret-store-provider vault describes the store of --secret-store, which is not given, so it would do nothing"],
            [["--secret-store-kind", "SecretStore", "--secrets", "omit"], "--secret-store-kind SecretStore describes the store of --secret-store"],
            [["--remote-key-prefix", "team/", "--secret-store-provider", "vault", "--secrets", "omit"], '--secret-store-provider vault and --remote-key-prefix "team/" describe the store of --secret-store, which is not given (--secrets=omit writes no ExternalSecret), so they would do nothing'],
        ];
        for (const [flags, message] of cases) {
            const dir = tmp();
            const r = await runMara([...base, ...flags], { cwd: dir });
            expect(r.code, flags.join(" ")).toBe(2);
            expect(r.stderr).toContain(message);
            expect(fs.readdirSync(dir)).toEqual([]);
        }
    });

    it("with a remote key prefix that steps out of itself ('..', '.', '//'); a name that only starts with dots is a name", async () => {
        const base = ["render", "--config-file", fixture("mara-lke"), "--out", "out", "--secret-store", "mara"];
        const cases: [string, string, string][] = [
            ["vault", "mara/../team-b/", `--remote-key-prefix "mara/../team-b/" has a '..' segment, which would step out of the prefix to another entry of the store. Allowed: a prefix of plain segments, such as mara/. Fix: --remote-key-prefix mara/`],
            ["aws-secrets-manager", "../", "has a '..' segment"],
            ["aws-parameter-store", "/mara/./x/", "has a '.' segment"],
            ["vault", "mara//x/", "has an empty segment ('//')"],
            ["aws-parameter-store", "//mara/", "has an empty segment ('//')"],
        ];
        for (const [provider, prefix, message] of cases) {
            const r = await runMara([...base, "--secret-store-provider", provider, "--remote-key-prefix", prefix], { cwd: tmp() });
            expect(r.code, prefix).toBe(2);
            expect(r.stderr).toContain(message);
        }
        expect(remoteKeyPrefixProblem("mara/..team/")).toBeUndefined();
        expect(remoteKeyPrefixProblem("mara/..")).toBeUndefined();
        expect(remoteKeyPrefixProblem("/mara/")).toBeUndefined();
        expect(remoteKeyPrefixProblem("")).toBeUndefined();
    });

    it("with --secret-store-provider pulumi: no environment, one esc names otherwise, the token's Secret where the store cannot read it, a prefix that is no property path", async () => {
        const base = ["render", "--config-file", fixture("mara-lke"), "--out", "out", "--secret-store", "mara", "--secret-store-provider", "pulumi"];
        const env = ["--esc-environment", "acme/platform/prod"];
        const cases: [string[], string][] = [
            [[], "mara: --secret-store-provider pulumi needs --esc-environment <organization>/<project>/<environment>: the Pulumi ESC environment the store opens"],
            [["--esc-environment", "acme/prod"], `--esc-environment "acme/prod" names no project: the External Secrets Operator's store needs the organization, the project and the environment (esc's <org>/<env> means the project "default": write <org>/default/<env>). Allowed: <organization>/<project>/<environment>`],
            [["--esc-environment", "acme/platform/prod@4"], `--esc-environment "acme/platform/prod@4" names a version of the environment ("prod@4")`],
            [["--esc-environment", "acme/../prod"], `has the project "..", which would name another path of the ESC API`],
            [["--esc-environment", `acme/platform/${"e".repeat(5000)} x`], "with characters a Pulumi ESC name does not hold"],
            [[...env, "--esc-token-secret", "pulumi-access-token"], `--esc-token-secret "pulumi-access-token" names no namespace, and a ClusterSecretStore reads its token from a Secret in a namespace it must name (the External Secrets Operator refuses it otherwise: "cluster store requires namespace"). Allowed: <namespace>/<name>. Fix: --esc-token-secret external-secrets/pulumi-access-token`],
            [[...env, "--secret-store-kind", "SecretStore", "--esc-token-secret", "eso/token"], `--esc-token-secret "eso/token" names the namespace "eso", and a SecretStore reads its token only from its own namespace (the External Secrets Operator refuses another)`],
            [[...env, "--esc-token-secret", "Eso/token"], `--esc-token-secret "Eso/token": the namespace "Eso" has characters or a form Kubernetes refuses in a name`],
            [[...env, "--esc-token-secret", "eso/a/b"], `--esc-token-secret "eso/a/b": the Secret's name "a/b" has characters or a form Kubernetes refuses in a name`],
            [[...env, "--esc-token-secret", "eso/"], `the Secret's name "" is empty`],
            [[...env, "--esc-token-key", "token key"], `--esc-token-key "token key" is not a key a Secret can hold. Allowed: letters, digits, '-', '_' and '.' (not '.' alone, not starting with '..'), at most 253 characters. Fix: --esc-token-key PULUMI_ACCESS_TOKEN`],
            [[...env, "--esc-token-key", "..token"], "is not a key a Secret can hold"],
            [[...env, "--esc-token-key", "k".repeat(254)], `--esc-token-key "${"k".repeat(60)}… (254 characters)" is not a key a Secret can hold`],
            [[...env, "--remote-key-prefix", "mara/"], `--remote-key-prefix "mara/" has the name "mara/", which Pulumi's property path grammar does not read as one plain name: with --secret-store-provider pulumi it is the property path of the environment's values that holds the platform's Secrets. Allowed: a Pulumi property path of plain names`],
            [[...env, "--remote-key-prefix", "imports"], "starts with imports, which esc env set writes to the environment's imports, not its values"],
        ];
        for (const [flags, message] of cases) {
            const dir = tmp();
            const r = await runMara([...base, ...flags], { cwd: dir });
            expect(r.code, flags.join(" ")).toBe(2);
            expect(r.stderr, flags.join(" ")).toContain(message);
            expect(r.stderr.length, "one screen").toBeLessThan(2000);
            expect(fs.readdirSync(dir)).toEqual([]);
        }
    }, 120_000);

    it("with the Pulumi ESC flags for another provider, or without a store (they would do nothing)", async () => {
        const base = ["render", "--config-file", fixture("mara-lke"), "--out", "out"];
        const cases: [string[], string][] = [
            [["--secret-store", "mara", "--secret-store-provider", "vault", "--esc-environment", "acme/platform/prod"], `mara: --esc-environment "acme/platform/prod" describes a Pulumi ESC store, and --secret-store-provider is vault, so it would do nothing. Fix: --secret-store-provider pulumi for a Pulumi ESC environment, or leave it out`],
            [["--secret-store", "mara", "--secret-store-provider", "aws-secrets-manager", "--esc-token-secret", "a/b", "--esc-token-key", "k"], `--esc-token-secret "a/b" and --esc-token-key "k" describe a Pulumi ESC store, and --secret-store-provider is aws-secrets-manager, so they would do nothing`],
            [["--secrets", "omit", "--esc-environment", "acme/platform/prod"], `--esc-environment "acme/platform/prod" describes the store of --secret-store, which is not given (--secrets=omit writes no ExternalSecret)`],
        ];
        for (const [flags, message] of cases) {
            const dir = tmp();
            const r = await runMara([...base, ...flags], { cwd: dir });
            expect(r.code, flags.join(" ")).toBe(2);
            expect(r.stderr).toContain(message);
            expect(fs.readdirSync(dir)).toEqual([]);
        }
    }, 120_000);

    it("into a folder that holds something else, leaving it as it was", async () => {
        const dir = tmp();
        fs.mkdirSync(path.join(dir, "out"));
        fs.writeFileSync(path.join(dir, "out", "notes.txt"), "mine");
        const r = await runMara(["render", "--config-file", fixture("mara-lke"), "--out", "out", "--secrets", "omit"], { cwd: dir });
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(`out is not empty and was not written by mara render (no ${MARKER} in it); choose an empty or new folder`);
        expect(fs.readdirSync(path.join(dir, "out"))).toEqual(["notes.txt"]);
    });

    it("--from-stack without the Pulumi CLI says how to pass saved outputs instead", async () => {
        const r = await runMara(["render", "--config-file", fixture("minimal-aws"), "--out", "out", "--secrets", "omit", "--from-stack"], {
            cwd: tmp(),
            env: { HOME: os.tmpdir(), PATH: "/nonexistent" },
        });
        expect(r.code).toBe(1);
        expect(r.stderr).toContain("--from-stack needs the Pulumi CLI (`pulumi` is not on PATH); or save the outputs where it is, with `pulumi stack output --json > outputs.json`, and pass --from-stack outputs.json");
    });
});

describe("mara render writes", () => {
    it("nothing when deploy-time values would be placeholders, and lists them with the stack output that gives each", async () => {
        const dir = tmp();
        const r = await runMara(["render", "--config-file", fixture("minimal-aws"), "--out", "out", "--secret-store", "vault", "--secret-store-provider", "vault"], { cwd: dir });
        expect(r.code).toBe(1);
        expect(r.stderr).toContain("Deploy-time values written as placeholders (no --from-stack):");
        expect(r.stderr).toMatch(/sha256:0{64}: .*; stack output kic_image_digest; in platform-ingress-controller\/deployment-kic-nginx-ingress-controller\.yaml/);
        expect(r.stderr).toMatch(/lb-hostname\.mara-placeholder\.invalid: .*; stack output lb_ingress_hostname; in bank-of-sirius\/ingress-bosingress\.yaml/);
        expect(r.stderr).toContain("registry-repository.mara-placeholder.invalid/nginx-ingress");
        expect(r.stderr).toContain("error: 3 deploy-time values are not known, so nothing was written.");
        expect(fs.existsSync(path.join(dir, "out"))).toBe(false);
    }, 180_000);

    it("the manifests with values from saved stack outputs (--from-stack FILE)", async () => {
        const dir = tmp();
        const r = await runMara(["render", "--config-file", fixture("minimal-aws"), "--out", "out", "--secret-store", "vault", "--secret-store-provider", "vault", "--from-stack", OUTPUTS], { cwd: dir });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain("Deploy-time values from the stack's outputs: kicImageDigest, loadBalancerHostname, registryRepository.");
        expect(r.stdout).toMatch(/^Wrote \d{3} objects in 8 components to out \(charts rendered for Kubernetes 1\.35\)\.$/m);
        expect(r.stdout).toMatch(/(\d+) Secrets became ExternalSecrets reading from ClusterSecretStore "vault" \(vault\); the \1 entries and \d+ keys it must hold are listed in out\/secret-keys\.txt\./);
        expect(r.stderr).not.toContain("mara-placeholder");
        const outputs = JSON.parse(fs.readFileSync(OUTPUTS, "utf8")) as Record<string, string>;
        const deployment = parse(fs.readFileSync(path.join(dir, "out", "platform-ingress-controller", "deployment-kic-nginx-ingress-controller.yaml"), "utf8")) as { spec: { template: { spec: { containers: { image: string }[] } } } };
        expect(deployment.spec.template.spec.containers[0]!.image).toBe(`${outputs.repository_url}@${outputs.kic_image_digest}`);
        const ingress = parse(fs.readFileSync(path.join(dir, "out", "bank-of-sirius", "ingress-bosingress.yaml"), "utf8")) as { spec: { rules: { host: string }[]; tls: { hosts: string[] }[] } };
        expect(ingress.spec.rules[0]!.host).toBe(outputs.lb_ingress_hostname);
        expect(ingress.spec.tls[0]!.hosts).toEqual([outputs.lb_ingress_hostname]);
        // No placeholder in any file, in any case.
        const all = [...files(path.join(dir, "out"))].map((f) => fs.readFileSync(f, "utf8")).join("\n");
        expect(all).not.toMatch(PLACEHOLDER_PATTERN);
    }, 240_000);

    it("with --secrets=omit no Secret data; then an ExternalSecret render replaces what it wrote, keeps the user's files, and lists the same Secrets for the store", async () => {
        const dir = tmp();
        const omit = await runMara(["render", "--config-file", fixture("mara-kubeconfig"), "--out", "out", "--secrets", "omit"], { cwd: dir });
        expect(omit.code, omit.stderr).toBe(0);
        expect(omit.stdout).toMatch(/\d+ Secrets were left out; create them before syncing\. They are listed in out\/omitted-secrets\.txt:\n {2}bos\/accounts-db-credentials\n/);
        const omitted = fs.readFileSync(path.join(dir, "out", "omitted-secrets.txt"), "utf8");
        const omitFiles = [...files(path.join(dir, "out"))].filter((f) => f.endsWith(".yaml")).map((f) => parse(fs.readFileSync(f, "utf8")) as { kind: string; data?: unknown; stringData?: unknown });
        expect(omitFiles.filter((o) => o.kind === "ExternalSecret" || (o.kind === "Secret" && (o.data || o.stringData)))).toEqual([]);
        fs.writeFileSync(path.join(dir, "out", "bank-of-sirius", "mine.yaml"), "kind: ConfigMap\n");
        const external = await runMara(["render", "--config-file", fixture("mara-kubeconfig"), "--out", "out", "--secret-store", "tenant", "--secret-store-kind", "SecretStore", "--secret-store-provider", "aws-secrets-manager"], { cwd: dir });
        expect(external.code, external.stderr).toBe(0);
        // A file the render did not write is never deleted (nor listed in the kustomization).
        expect(fs.readFileSync(path.join(dir, "out", "bank-of-sirius", "mine.yaml"), "utf8")).toBe("kind: ConfigMap\n");
        expect(fs.readFileSync(path.join(dir, "out", "bank-of-sirius", "kustomization.yaml"), "utf8")).not.toContain("mine.yaml");
        expect(fs.existsSync(path.join(dir, "out", "omitted-secrets.txt"))).toBe(false);
        expect(fs.readFileSync(path.join(dir, "out", "bank-of-sirius", "externalsecret-jwt-key.yaml"), "utf8")).toContain("secretStoreRef:\n    kind: SecretStore\n    name: tenant\n");
        expect(fs.readdirSync(dir)).toEqual(["out"]);
        // The Secrets left out before are exactly those the store now fills, key for key.
        const keys = fs.readFileSync(path.join(dir, "out", "secret-keys.txt"), "utf8").split("\n").filter((l) => l && !l.startsWith("#")).map((l) => l.split("\t"));
        const bySecret = new Map<string, string[]>();
        for (const [, secret, key] of keys) bySecret.set(secret!, [...(bySecret.get(secret!) ?? []), key!]);
        expect(bySecret.size).toBeGreaterThan(5);
        expect(omitted.split("\n").filter((l) => l && !l.startsWith("#")).sort()).toEqual([...bySecret].map(([s, k]) => `${s}\t${k.join(" ")}`).sort());
    }, 600_000);
});

describe("mara render of a stack Argo CD delivers: Argo CD's repository Secret", () => {
    const gitopsStack = (dir: string, extra: Record<string, string> = {}) => {
        const file = path.join(dir, "Pulumi.gitops.yaml");
        const config = {
            "kubernetes:infra_type": "kubeconfig",
            "kubernetes:kubeconfig": path.join(FIXTURES, "kubeconfig.yaml"),
            "kic-helm:fqdn": "mara.lab.example.org",
            "mara:delivery": "gitops",
            "mara:gitopsRepoUrl": "https://git.example.com/org/platform-config.git",
            "mara:gitopsPath": "deploy/prod",
            ...extra,
        };
        fs.writeFileSync(file, stringify({ config }));
        return file;
    };
    const storeKeys = (dir: string) => fs.readFileSync(path.join(dir, "out", "secret-keys.txt"), "utf8").split("\n").filter((l) => l.startsWith("mara/argocd/"));

    it("with --secret-store: an ExternalSecret fills it from the store (url as written, the credential by reference, never a value), outside every Application", async () => {
        const dir = tmp();
        const r = await runMara(["render", "--config-file", gitopsStack(dir), "--out", "out", "--secret-store", "mara", "--secret-store-provider", "vault"], { cwd: dir });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain("For a private repository, Argo CD's repository Secret comes from the store: apply out/argocd/repository once where Argo CD runs, before the root Application (kubectl apply -k out/argocd/repository).");
        const object = parse(fs.readFileSync(path.join(dir, "out", "argocd", "repository", "externalsecret-mara-repository.yaml"), "utf8")) as KubeObject & { spec: { target: { template: { data: Record<string, string>; metadata: { labels: Record<string, string> } } }; data: unknown[] } };
        const { ExternalSecret } = await import("@kubernetes-models/external-secrets/external-secrets.io/v1/ExternalSecret");
        new ExternalSecret(object as never).validate();
        expect(object.metadata).toMatchObject({ name: "mara-repository", namespace: "argocd" });
        expect(object.spec.target.template.metadata.labels).toMatchObject({ "argocd.argoproj.io/secret-type": "repository" });
        expect(object.spec.target.template.data).toEqual({ type: "git", url: "https://git.example.com/org/platform-config.git", username: "{{ .username }}", password: "{{ .password }}" });
        expect(object.spec.data).toEqual(["username", "password"].map((k) => ({ secretKey: k, remoteRef: { key: "mara/argocd/mara-repository", property: k } })));
        expect(storeKeys(dir)).toEqual(["mara/argocd/mara-repository\targocd/mara-repository\tpassword", "mara/argocd/mara-repository\targocd/mara-repository\tusername"]);
        // No Application syncs it (Argo CD needs it before it can read Git), and the count of Applications leaves it out.
        expect((parse(fs.readFileSync(path.join(dir, "out", "argocd", "kustomization.yaml"), "utf8")) as { resources: string[] }).resources).not.toContain("repository");
        expect(r.stdout).toMatch(/^Wrote 7 Argo CD Applications, one per component/m);
    }, 240_000);

    it("an SSH URL: the key by reference; the stack's own credential (Pulumi writes the Secret) or --secrets=omit: nothing of it in the render", async () => {
        const ssh = tmp();
        const r = await runMara(["render", "--config-file", gitopsStack(ssh, { "mara:gitopsRepoUrl": "git@git.example.com:org/platform-config.git" }), "--out", "out", "--secret-store", "mara", "--secret-store-provider", "aws-secrets-manager"], { cwd: ssh });
        expect(r.code, r.stderr).toBe(0);
        const object = parse(fs.readFileSync(path.join(ssh, "out", "argocd", "repository", "externalsecret-mara-repository.yaml"), "utf8")) as { spec: { target: { template: { data: Record<string, string> } } } };
        expect(object.spec.target.template.data).toEqual({ type: "git", url: "git@git.example.com:org/platform-config.git", sshPrivateKey: "{{ .sshPrivateKey }}" });
        expect(storeKeys(ssh)).toEqual(["mara/argocd/mara-repository\targocd/mara-repository\tsshPrivateKey"]);

        const TOKEN = "repo-token-in-the-stack-4242";
        const pulumiHolds = tmp();
        const held = await runMara(["render", "--config-file", gitopsStack(pulumiHolds, { "mara:gitopsRepoPassword": TOKEN }), "--out", "out", "--secret-store", "mara", "--secret-store-provider", "vault"], { cwd: pulumiHolds });
        expect(held.code, held.stderr).toBe(0);
        expect(fs.existsSync(path.join(pulumiHolds, "out", "argocd", "repository"))).toBe(false);
        expect(storeKeys(pulumiHolds)).toEqual([]);
        expect(held.stdout).not.toContain("repository Secret");
        expect([...files(path.join(pulumiHolds, "out"))].filter((f) => fs.readFileSync(f, "utf8").includes(TOKEN))).toEqual([]);

        const omit = tmp();
        const omitted = await runMara(["render", "--config-file", gitopsStack(omit), "--out", "out", "--secrets=omit"], { cwd: omit });
        expect(omitted.code, omitted.stderr).toBe(0);
        expect(fs.existsSync(path.join(omit, "out", "argocd", "repository"))).toBe(false);
    }, 540_000);
});

/**
 * No credential reaches a file `mara render` writes, nor a stack output in plain text. Two stacks Argo CD delivers
 * (an AWS one and an existing cluster's) set every secret key to a marker, and put credentials wherever a URL or a
 * kubeconfig can carry one: user information in chart repository URLs, the ACME server and the ingress controller's
 * source URL, a token in a chart repository URL's query, an inline kubeconfig whose token, client key and server URL
 * hold markers, the registry's password. Each is rendered with ExternalSecrets and with --secrets=omit; every file
 * written (the Applications under argocd/ and the repository Secret's ExternalSecret included) and every line printed
 * is searched for every marker, as written, JSON-escaped, percent-encoded and base64-encoded. Then the program runs
 * under mocks as `pulumi up` would, and every stack output that is not a secret Output is searched the same way.
 */
import * as pulumi from "@pulumi/pulumi";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { stringify } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEYS, KeySpec } from "../../config";
import { KUBECONFIG_TEXT, stackFile } from "../support/config";
import { runProgram } from "../support/program";
import { runMara } from "./support/io";

const MARKERS: string[] = [];
/** A marker, distinct and easy to find, with characters that need quoting in YAML, JSON and a shell. */
const mark = (name: string) => {
    const m = `mk-${name}-${MARKERS.length}-Zq"9'$x`;
    MARKERS.push(m);
    return m;
};
/** A marker that can stand in a URL's user information or query unencoded. */
const urlMark = (name: string) => {
    const m = `mk${name}${MARKERS.length}Zq9x`;
    MARKERS.push(m);
    return m;
};

/** Markers in the form a secret's type checks, where it checks one (a URL, a key's length, a token's characters). */
const FORMED: Readonly<Record<string, (name: string) => string>> = {
    [KEYS.alertSlackWebhookUrl.key]: (name) => `https://hooks.slack.com/services/${urlMark(name)}`,
    [KEYS.alertPagerdutyRoutingKey.key]: (name) => urlMark(name).padEnd(32, "Q"),
    [KEYS.alertWebhookBearerToken.key]: (name) => urlMark(name),
};

/**
 * Every secret key the program reads, set to a marker; the SSH key is the one way in the password is not (they exclude
 * each other). The email receiver's password comes with the keys it needs (config/alerting.ts).
 */
function secretKeys(): Record<string, string> {
    const values: Record<string, string> = {};
    for (const spec of (Object.values(KEYS) as KeySpec<unknown>[]).filter((s) => s.secret && s.key !== KEYS.gitopsRepoSshPrivateKey.key)) {
        const name = spec.key.split(":")[1]!;
        values[spec.key] = FORMED[spec.key]?.(name) ?? mark(name);
    }
    return { ...values, "mara:alertEmailTo": "oncall@example.com", "mara:alertEmailFrom": "am@example.com", "mara:alertEmailSmarthost": "smtp.example.com:587", "mara:alertEmailUsername": "am" };
}

const GITOPS = { "mara:delivery": "gitops", "mara:gitopsRepoUrl": "https://git.example.com/org/platform-config.git", "mara:gitopsPath": "deploy/prod" };

/** URL credentials in every URL-valued key that reaches a Helm release, a custom resource or an image build. */
function urlCredentials(): Record<string, string> {
    return {
        "mara:prometheusHelmRepoUrl": `https://mirror:${urlMark("prom")}@charts.example.com/prometheus-community`,
        "mara:logagentHelmRepoUrl": `https://${urlMark("tokenuser")}@charts.example.com/fluent`,
        "mara:logstoreHelmRepoUrl": `https://helm.elastic.co?access_token=${urlMark("query")}`,
        "mara:argoCdHelmRepoUrl": `https://argo:${urlMark("argo")}@charts.example.com/argo`,
        "mara:gitopsRepoUsername": urlMark("repouser"),
    };
}

let dir: string;
const outputs: { what: string; text: string }[] = [];
const stacks: Record<string, Record<string, string>> = {};

beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-render-credentials-"));
    stacks.aws = {
        "kubernetes:infra_type": "aws",
        "aws:region": "us-east-1",
        "mara:fqdn": "mara.example.com",
        "mara:tlsIssuer": "acme",
        "mara:acmeEmail": "ops@example.com",
        "kic:image_origin": "source",
        "kic:src_url": `https://oauth2:${urlMark("kicsrc")}@github.com/nginx/kubernetes-ingress.git#v5.5.4`,
        ...GITOPS,
        ...secretKeys(),
        ...urlCredentials(),
    };
    const kubeToken = mark("kubetoken");
    const clientKey = Buffer.from(mark("clientkey")).toString("base64");
    MARKERS.push(clientKey);
    const serverPassword = urlMark("serverpw");
    const kubeconfig = KUBECONFIG_TEXT.replace("fixture-kubeconfig-token", kubeToken)
        .replace("https://203.0.113.5:6443", `https://kube:${serverPassword}@203.0.113.5:6443`)
        .replace(/users:\n/, `users:\n  - name: keyed\n    user:\n      client-key-data: ${clientKey}\n`);
    stacks.kubeconfig = {
        "kubernetes:infra_type": "kubeconfig",
        "kubernetes:kubeconfig": kubeconfig,
        "kic-helm:fqdn": "mara.lab.example.org",
        "mara:registryServer": "registry.example.com",
        "mara:registryRepository": "team/kic",
        "mara:registryUsername": urlMark("registryuser"),
        "kic:image_origin": "source",
        "kic:src_url": `https://${urlMark("kictoken")}@github.com/nginx/kubernetes-ingress.git#v5.5.4`,
        ...GITOPS,
        ...secretKeys(),
        ...urlCredentials(),
    };
    // An Argo CD on a hub: the render writes the repository Secret's ExternalSecret too (the stack's credential keys do nothing).
    stacks.hub = { ...stacks.kubeconfig, "mara:gitopsArgoCd": "external" };
    for (const [name, config] of Object.entries(stacks)) fs.writeFileSync(path.join(dir, `Pulumi.${name}.yaml`), stringify({ config }));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Every form a marker could take in a file: as written, JSON-escaped, percent-encoded, base64 (a Secret's data). */
const forms = (m: string) => [...new Set([m, JSON.stringify(m).slice(1, -1), encodeURIComponent(m), Buffer.from(m).toString("base64")])];
const leaksIn = (what: string, text: string) => MARKERS.flatMap((m) => forms(m).filter((f) => text.includes(f)).map((f) => `${what}: ${f}`));

/** Every file under a folder, links not followed. */
const walk = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));

const STORE = ["--secret-store", "mara", "--secret-store-provider", "vault"];
const RENDERS: [string, string[]][] = [
    ["aws", STORE],
    ["aws", ["--secrets=omit"]],
    ["kubeconfig", STORE],
    ["kubeconfig", ["--secrets=omit"]],
    ["hub", STORE],
];

describe("every file mara render writes, and every line it prints", () => {
    for (const [stack, secrets] of RENDERS) {
        it(`${stack}, ${secrets.join(" ")}`, async () => {
            const out = path.join(dir, `out-${stack}-${secrets.length}`);
            const r = await runMara(["render", "-c", path.join(dir, `Pulumi.${stack}.yaml`), "--out", out, ...secrets, "--allow-placeholders"], { cwd: dir });
            expect(r.code, r.stderr).toBe(0);
            outputs.push({ what: `render ${stack} ${secrets.join(" ")}`, text: r.stdout + r.stderr });
            const written = walk(out);
            // The render Argo CD delivers: its Applications (and, with a store, the repository Secret's ExternalSecret) are among the files searched.
            expect(written.some((f) => f.includes(`${path.sep}argocd${path.sep}application-`))).toBe(true);
            expect(written.length).toBeGreaterThan(100);
            expect(written.some((f) => f.endsWith(path.join("argocd", "repository", "externalsecret-mara-repository.yaml")))).toBe(stack === "hub");
            const leaks = written.flatMap((f) => leaksIn(path.relative(out, f), fs.readFileSync(f, "utf8")));
            expect(leaks).toEqual([]);
            expect(leaksIn("output", r.stdout + r.stderr)).toEqual([]);
        }, 240_000);
    }
});

describe("a URL whose credential would be written into a render is refused", () => {
    it("the ACME server (the ClusterIssuer carries it): validate, plan and render refuse it without showing it", async () => {
        const password = urlMark("acme");
        const file = path.join(dir, "Pulumi.acme.yaml");
        fs.writeFileSync(file, stringify({ config: { "kubernetes:infra_type": "aws", "aws:region": "us-east-1", "mara:acmeServer": `https://acme:${password}@acme-staging-v02.api.letsencrypt.org/directory` } }));
        for (const command of [["validate"], ["plan"], ["render", "--out", path.join(dir, "never"), "--secrets=omit"]]) {
            const r = await runMara([command[0]!, "-c", file, ...command.slice(1)], { cwd: dir });
            expect(r.code, command[0]).toBe(1);
            expect(r.stderr).toContain('mara:acmeServer = "https://[secret]@acme-staging-v02.api.letsencrypt.org/directory": holds a credential (user information, or a token in its query), which an ACME directory never takes');
            outputs.push({ what: command[0]!, text: r.stdout + r.stderr });
        }
        expect(fs.existsSync(path.join(dir, "never"))).toBe(false);
    }, 60_000);
});

describe("the stack's outputs", () => {
    // The hub's outputs include the cluster Secret, whose API server comes from the kubeconfig (its password a marker).
    for (const stack of ["aws", "kubeconfig", "hub"]) {
        it(`${stack}: no output holds a credential unless it is a secret Output`, async () => {
            const run = await runProgram(stackFile(fs.readFileSync(path.join(dir, `Pulumi.${stack}.yaml`), "utf8")));
            expect(run.error).toBeUndefined();
            const plain: string[] = [];
            for (const [name, value] of Object.entries(run.outputs as Record<string, pulumi.Input<unknown>>)) {
                const output = pulumi.output(value);
                if (await pulumi.isSecret(output)) continue;
                const resolved = await new Promise<unknown>((resolve) => (output as pulumi.Output<unknown>).apply(resolve));
                plain.push(`${name}=${JSON.stringify(resolved)}`);
            }
            expect(plain.length).toBeGreaterThan(5);
            if (stack === "hub") expect(plain.some((p) => p.startsWith("argocd_cluster_secret=") && p.includes("203.0.113.5:6443"))).toBe(true);
            expect(plain.flatMap((p) => leaksIn(p.split("=")[0]!, p))).toEqual([]);
            outputs.push({ what: `program ${stack}`, text: run.warnings.join("\n") });
        }, 120_000);
    }

    it("and no warning of any run shows one", () => {
        expect(outputs.length).toBeGreaterThanOrEqual(11);
        expect(outputs.flatMap(({ what, text }) => leaksIn(what, text))).toEqual([]);
    });
});

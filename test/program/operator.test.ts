/**
 * `mara:delivery: operator` (docs/delivery-operator.md) under Pulumi mocks, with the engine's URNs and aliases:
 *
 * - the switch in and back: the cloud, the cluster, the registry and the image stay (each matched, nothing replaced);
 *   the platform and the application leave the stack (after `handover` marked them to stay on the cluster, as for
 *   `gitops`); switching back to pulumi matches everything again but the operator;
 * - the operator: a Helm release of its chart with the CRDs of its crds/ directory applied as resources (Helm skips
 *   them), the workspace's ServiceAccount and bindings, the Secrets of the access token, passphrase and repository
 *   credential (every value a secret, nowhere in plain text), and the `Stack` on the repository, waiting for all of it;
 * - validation: what the operator's delivery needs, and the keys that do nothing.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { OPERATOR_NAMESPACE, STACK_NAME } from "../../components/pulumiOperator/stack";
import { formatProblem, validateConfig, type RawConfig } from "../../config";
import { CHARTS } from "../../contracts";
import { fixture } from "../support/config";
import { plainStrings, unwrapSecrets, type Registration } from "../support/mocks";
import { runProgram } from "../support/program";

const TOKEN = "pul-AccessTokenMarker0123456789abcdef";
const PASSPHRASE = "stack-Passphrase-Marker-4242";
const REPO_TOKEN = "ghp_OperatorRepoTokenMarker0123456789";
const OPERATOR = {
    "mara:gitopsRepoUrl": "https://git.example.com/platform-config.git",
    "mara:gitopsPath": "deploy/prod",
    "mara:operatorStack": "acme/mara/prod-in-cluster",
    "mara:operatorAccessToken": TOKEN,
};
const withValues = (raw: RawConfig, values: Record<string, string>): RawConfig => ({ ...raw, values: { ...raw.values, ...values } });
/** The stack's values with `more`; a key given as undefined is left out. */
const stack = (delivery: string, more: Record<string, string | undefined> = {}) =>
    withValues(fixture("minimal-aws"), Object.fromEntries(Object.entries({ ...OPERATOR, "mara:fqdn": "mara.example.com", "mara:delivery": delivery, "mara:protectData": "true", ...more }).filter((e): e is [string, string] => e[1] !== undefined)));
const NO_TOKEN = { "mara:operatorAccessToken": undefined };

const under = (r: Registration, type: string) => r.urn!.split("::")[2]!.split("$").includes(type);
const IN_CLUSTER = ["mara:platform:Platform", "mara:app:Application", "mara:k8s:VolumeRetention"];
const inCluster = (r: Registration) => IN_CLUSTER.some((t) => under(r, t)) && !under(r, "mara:registry:IngressControllerImage");
const operatorOwn = (r: Registration) => under(r, "mara:gitops:PulumiOperator");
const outputValue = async (v: unknown) => new Promise<unknown>((resolve) => (pulumi.Output.isInstance(v) ? (v as pulumi.Output<unknown>).apply(resolve) : resolve(v)));

/** The resources of `before` that no resource of `after` matches by URN or alias: what an update would replace. */
function replaced(before: Registration[], after: Registration[]): string[] {
    const known = new Set(after.flatMap((r) => [r.urn!, ...(r.aliases ?? [])]));
    return before.filter((r) => r.custom && !known.has(r.urn!)).map((r) => r.urn!);
}

describe("mara:delivery: operator", { timeout: 240_000 }, () => {
    it("keeps the cloud, the cluster, the registry and the image (nothing replaced); the platform and the application leave the stack, which handover marked to stay; back to pulumi, only the operator leaves", async () => {
        const [pulumiRun, handover, operator] = [
            await runProgram(stack("pulumi"), { engineUrns: true }),
            await runProgram(stack("handover"), { engineUrns: true }),
            await runProgram(stack("operator"), { engineUrns: true }),
        ];
        expect(operator.error).toBeUndefined();
        expect(operator.registrations.filter(inCluster).map((r) => r.urn)).toEqual([]);
        expect(replaced(pulumiRun.registrations.filter((r) => !inCluster(r)), operator.registrations)).toEqual([]);
        // What leaves the stack on the switch in is what handover marked to stay on the cluster.
        const leaving = replaced(handover.registrations, operator.registrations);
        expect(leaving.length).toBeGreaterThan(100);
        const byUrn = new Map(handover.registrations.map((r) => [r.urn!, r]));
        expect(leaving.filter((u) => !byUrn.get(u)!.retainOnDelete || byUrn.get(u)!.protect)).toEqual([]);
        // Back: everything but the operator is matched again.
        expect(replaced(operator.registrations.filter((r) => !operatorOwn(r)), pulumiRun.registrations)).toEqual([]);
        // The operator goes through the cluster's one Kubernetes provider.
        expect(new Set(operator.registrations.filter((r) => operatorOwn(r) && r.custom && r.type.startsWith("kubernetes:")).map((r) => r.provider.split("::").at(-2)))).toEqual(new Set(["kubeconfig-provider"]));
    });

    it("installs the operator's chart (its crds/ CRDs applied here), the workspace's identity and Secrets, and a Stack on the repository that waits for all of them", async () => {
        const run = await runProgram(stack("operator", { "mara:operatorPassphrase": PASSPHRASE, "mara:gitopsRepoPassword": REPO_TOKEN }));
        expect(run.error).toBeUndefined();
        const own = run.registrations.filter((r) => operatorOwn(r) && r.custom);
        const named = (type: string, name: string) => own.find((r) => r.type === type && r.name === name)!;
        const release = named("kubernetes:helm.sh/v3:Release", "pulumi-operator-release");
        expect(release.inputs).toMatchObject({
            name: "pulumi-kubernetes-operator",
            namespace: OPERATOR_NAMESPACE,
            chart: `${CHARTS.pulumiOperator.repositoryUrl}/${CHARTS.pulumiOperator.chart}`,
            version: CHARTS.pulumiOperator.version,
            skipCrds: true,
        });
        const crds = own.filter((r) => r.type === "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinitionPatch").map((r) => r.name).sort();
        expect(crds).toEqual(["pulumi-operator-crd-programs.pulumi.com", "pulumi-operator-crd-stacks.pulumi.com", "pulumi-operator-crd-updates.auto.pulumi.com", "pulumi-operator-crd-workspaces.auto.pulumi.com"]);

        const stackCr = named("kubernetes:pulumi.com/v1:Stack", "pulumi-operator-stack");
        expect(stackCr.inputs).toMatchObject({
            apiVersion: "pulumi.com/v1",
            kind: "Stack",
            metadata: { name: STACK_NAME, namespace: OPERATOR_NAMESPACE },
            spec: {
                stack: "acme/mara/prod-in-cluster",
                projectRepo: OPERATOR["mara:gitopsRepoUrl"],
                repoDir: "deploy/prod",
                branch: "main",
                gitAuthSecret: "mara-repository",
                envRefs: {
                    PULUMI_ACCESS_TOKEN: { type: "Secret", secret: { name: "mara-operator-stack", key: "accessToken" } },
                    PULUMI_CONFIG_PASSPHRASE: { type: "Secret", secret: { name: "mara-operator-stack", key: "passphrase" } },
                },
                serviceAccountName: STACK_NAME,
                destroyOnFinalize: false,
            },
        });
        expect((stackCr.inputs!.spec as Record<string, unknown>).commit).toBeUndefined();
        for (const r of own.filter((x) => x !== stackCr && x.type !== "pulumi-nodejs:dynamic:Resource" && x.type !== "kubernetes:core/v1:Namespace")) expect(stackCr.dependencies, r.name).toContain(r.urn);

        // The workspace's identity: TokenReviews for the operator's agent, cluster-admin for the platform's cluster-wide objects.
        const bindings = own.filter((r) => r.type === "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding").map((r) => (r.inputs as { roleRef: { name: string } }).roleRef.name).sort();
        expect(bindings).toEqual(["cluster-admin", "system:auth-delegator"]);

        // The credentials: in Secrets, every value secret, and nowhere in plain text.
        const stackSecret = named("kubernetes:core/v1:Secret", "pulumi-operator-stack-secret");
        expect(unwrapSecrets(stackSecret.inputs!.stringData)).toEqual({ accessToken: TOKEN, passphrase: PASSPHRASE });
        expect(plainStrings(stackSecret.inputs!.stringData)).toEqual([]);
        const repository = named("kubernetes:core/v1:Secret", "pulumi-operator-repository");
        // A token without a user: the operator's gitAuthSecret key accessToken (resolveGitAuth).
        expect(unwrapSecrets(repository.inputs!.stringData)).toEqual({ accessToken: REPO_TOKEN });
        for (const marker of [TOKEN, PASSPHRASE, REPO_TOKEN]) expect(run.registrations.flatMap((r) => plainStrings(r.inputs)).filter((t) => t.includes(marker))).toEqual([]);

        const outputs = run.outputs as Record<string, unknown>;
        expect(await outputValue(outputs.delivery)).toBe("operator");
        expect(await outputValue(outputs.operator_stack)).toBe("acme/mara/prod-in-cluster");
        expect(await outputValue(outputs.operator_version)).toBe(CHARTS.pulumiOperator.version);
        expect(JSON.stringify(await Promise.all(Object.values(outputs).map(outputValue)))).not.toMatch(new RegExp([TOKEN, PASSPHRASE, REPO_TOKEN].join("|")));
        expect(outputs.application_url).toBeUndefined();
        expect(outputs.argocd_application).toBeUndefined();
    });

    it("a full commit is the Stack's commit, a user and password basic auth, an SSH key sshPrivateKey; an object store takes no token", async () => {
        const COMMIT = "0123456789abcdef0123456789abcdef01234567";
        const KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----";
        const spec = (run: Awaited<ReturnType<typeof runProgram>>) => run.registrations.find((r) => r.type === "kubernetes:pulumi.com/v1:Stack")!.inputs!.spec as Record<string, unknown>;
        const secretOf = (run: Awaited<ReturnType<typeof runProgram>>, name: string) => unwrapSecrets(run.registrations.find((r) => r.name === name)?.inputs?.stringData);

        const commit = await runProgram(stack("operator", { "mara:gitopsRevision": COMMIT, "mara:gitopsRepoUsername": "robot", "mara:gitopsRepoPassword": REPO_TOKEN }));
        expect(commit.error).toBeUndefined();
        expect(spec(commit)).toMatchObject({ commit: COMMIT });
        expect(spec(commit).branch).toBeUndefined();
        expect(secretOf(commit, "pulumi-operator-repository")).toEqual({ username: "robot", password: REPO_TOKEN });

        const ssh = await runProgram(stack("operator", { "mara:gitopsRepoUrl": "git@git.example.com:org/platform-config.git", "mara:gitopsRepoSshPrivateKey": KEY }));
        expect(ssh.error).toBeUndefined();
        expect(secretOf(ssh, "pulumi-operator-repository")).toEqual({ sshPrivateKey: `${KEY}\n` });

        const s3 = await runProgram(stack("operator", { "mara:operatorBackend": "s3://acme-state", ...NO_TOKEN }));
        expect(s3.error).toBeUndefined();
        expect(spec(s3)).toMatchObject({ backend: "s3://acme-state", envRefs: {} });
        expect(s3.registrations.filter((r) => r.name === "pulumi-operator-stack-secret" || r.name === "pulumi-operator-repository")).toEqual([]);
    });
});

describe("mara:delivery: operator, in a first preview", () => {
    it("registers what up registers while the cluster's outputs are unknown, every custom resource on an explicit provider and every Kubernetes object on the cluster's", async () => {
        const plan = (regs: Registration[]) => regs.map((r) => `${r.type}::${r.name}`).sort();
        const up = await runProgram(stack("operator"));
        const preview = await runProgram(stack("operator"), { preview: true });
        expect(up.error).toBeUndefined();
        expect(preview.error).toBeUndefined();
        expect(plan(preview.registrations)).toEqual(plan(up.registrations));
        // Dynamic resources (the drain, the ownership guard) run in the program's own process, with no provider to name.
        const custom = preview.registrations.filter((r) => r.custom && !r.type.startsWith("pulumi:providers:") && !r.type.startsWith("pulumi-nodejs:dynamic:"));
        expect(custom.filter((r) => r.provider === "").map((r) => `${r.type} ${r.name}`)).toEqual([]);
        const kubernetes = custom.filter((r) => r.type.startsWith("kubernetes:"));
        expect(kubernetes.length).toBeGreaterThan(10);
        expect(kubernetes.filter((r) => !/pulumi:providers:kubernetes::kubeconfig-provider::/.test(r.provider)).map((r) => `${r.type} ${r.name}`)).toEqual([]);
    }, 240_000);
});

describe("mara:delivery: operator, its configuration sections", () => {
    it("MaraConfig.pulumiOperator holds the chart and the stack it deploys, the token a secret Output; the deprecated gitops members are the same objects", async () => {
        const cfg = validateConfig(stack("operator")).config!;
        expect(cfg.pulumiOperator.chart.version).toBe(CHARTS.pulumiOperator.version);
        expect(cfg.pulumiOperator.stack?.stack).toBe("acme/mara/prod-in-cluster");
        expect(pulumi.Output.isInstance(cfg.pulumiOperator.stack?.accessToken)).toBe(true);
        expect(JSON.stringify(cfg.pulumiOperator.chart)).not.toContain(TOKEN);
        expect(cfg.gitops.operator).toBe(cfg.pulumiOperator.stack);
        expect(cfg.gitops.operatorChart).toBe(cfg.pulumiOperator.chart);
        expect(cfg.gitops.argoCdChart).toBe(cfg.argoCd.chart);
        // Another delivery: no stack for the operator to deploy, the chart still settled.
        const gitops = validateConfig(stack("gitops", NO_TOKEN)).config!;
        expect(gitops.pulumiOperator.stack).toBeUndefined();
        expect(gitops.argoCd.chart.version).toBe(CHARTS.argoCd.version);
    });
});

describe("mara:delivery: operator, validated", () => {
    const check = (values: Record<string, string | undefined>) => {
        const r = validateConfig(withValues(fixture("minimal-aws"), Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => e[1] !== undefined))));
        return { problems: (r.problems ?? []).map((p) => `${p.key}: ${p.problem}`), warnings: r.warnings ?? [] };
    };

    it("needs the repository, its folder, the stack and, for Pulumi Cloud, an access token; no host name (the in-cluster stack has its own)", () => {
        expect(check({ "mara:delivery": "operator" }).problems.sort()).toEqual([
            "mara:gitopsRepoUrl: is not set, and mara:delivery is operator",
            "mara:gitopsPath: is not set, and mara:delivery is operator",
            "mara:operatorStack: is not set, and mara:delivery is operator: the operator's Stack names the stack it deploys",
            "mara:operatorAccessToken: is not set, and the operator's workspace signs in to Pulumi Cloud with one (mara:delivery is operator)",
        ].sort());
        expect(check({ ...OPERATOR, "mara:delivery": "operator" }).problems).toEqual([]);
        expect(check({ ...OPERATOR, "mara:delivery": "operator", ...NO_TOKEN, "mara:operatorBackend": "https://pulumi.acme.example" }).problems).toEqual([
            "mara:operatorAccessToken: is not set, and the operator's workspace signs in to https://pulumi.acme.example with one (mara:delivery is operator)",
        ]);
    });

    it("refuses a stack name, backend or revision the operator or Pulumi would refuse, naming the key", () => {
        const first = (values: Record<string, string>) => check({ ...OPERATOR, "mara:delivery": "operator", ...values }).problems[0];
        expect(first({ "mara:operatorStack": "a/b/c/d" })).toMatch(/^mara:operatorStack: has 4 parts separated by '\/'/);
        expect(first({ "mara:operatorStack": "acme//prod" })).toMatch(/^mara:operatorStack: has an empty part/);
        expect(first({ "mara:operatorStack": "prod stack" })).toMatch(/^mara:operatorStack: has the part "prod stack", with a character Pulumi refuses/);
        expect(first({ "mara:operatorStack": `acme/${"p".repeat(101)}` })).toMatch(/^mara:operatorStack: has a part of 101 characters, and Pulumi allows at most 100/);
        expect(first({ "mara:operatorStack": `acme/${"p".repeat(100)}` })).toBeUndefined();
        expect(first({ "mara:operatorStack": "acme/../prod" })).toMatch(/only dots/);
        expect(first({ "mara:operatorBackend": "file:///tmp/state" })).toMatch(/^mara:operatorBackend: is a file:\/\/ backend/);
        expect(first({ "mara:operatorBackend": "http://pulumi.acme.example" })).toMatch(/^mara:operatorBackend: is a plain http:\/\/ URL/);
        expect(first({ "mara:operatorBackend": "ftp://x" })).toMatch(/^mara:operatorBackend: has the scheme ftp:\/\//);
        expect(first({ "mara:operatorBackend": "s3://" })).toMatch(/no host, bucket or container/);
        expect(first({ "mara:operatorBackend": "pulumi.acme.example" })).toMatch(/is not a URL/);
        expect(first({ "mara:gitopsRevision": "a".repeat(64) })).toMatch(/^mara:gitopsRevision: is a SHA-256 commit/);
        expect(first({ "mara:gitopsRevision": "--orphan" })).toMatch(/^mara:gitopsRevision: /);
        expect(check({ ...OPERATOR, "mara:delivery": "operator", "mara:gitopsRevision": "0123abc" }).warnings.join("\n")).toContain("looks like an abbreviated commit");
    });

    it("never shows a credential in a backend URL or the repository URL", () => {
        const r = validateConfig(withValues(fixture("minimal-aws"), { ...OPERATOR, "mara:delivery": "operator", "mara:operatorBackend": `https://robot:${REPO_TOKEN}@pulumi.acme.example` }));
        const text = JSON.stringify(r.problems);
        expect(text).toContain("mara:operatorBackend");
        expect(text).toContain("holds a credential");
        expect(text).not.toContain(REPO_TOKEN);
    });

    it("names the keys that do nothing: the operator's keys without it, Argo CD's with it; an access token with an object store", () => {
        expect(check({ ...OPERATOR, "mara:delivery": "gitops", "mara:fqdn": "mara.example.com" }).warnings.join("\n")).toContain(
            "mara:operatorStack, mara:operatorAccessToken do nothing while mara:delivery is gitops, so their values are not checked",
        );
        // Unread, so not checked: a bad value is no problem while the delivery is not operator.
        expect(check({ "mara:operatorStack": "a b" }).problems).toEqual([]);
        expect(check({ ...OPERATOR, "mara:delivery": "operator", "mara:gitopsArgoCd": "external", "mara:argoCdChartVersion": "10.9.0" }).warnings.join("\n")).toContain(
            "mara:gitopsArgoCd, mara:argoCdChartVersion do nothing while mara:delivery is operator",
        );
        expect(check({ ...OPERATOR, "mara:delivery": "operator", "mara:operatorBackend": "gs://acme-state" }).warnings.join("\n")).toContain("mara:operatorAccessToken does nothing with mara:operatorBackend = gs://acme-state");
        // The repository's credential must fit its URL under the operator too.
        expect(check({ ...OPERATOR, "mara:delivery": "operator", "mara:gitopsRepoUrl": "git@git.example.com:o/r.git", "mara:gitopsRepoPassword": "p4ss-word" }).problems[0]).toMatch(/^mara:gitopsRepoPassword: is a password for HTTPS/);
    });

    it("speaks of the operator, not Argo CD, in the repository's messages", () => {
        const sshWithPassword = check({ ...OPERATOR, "mara:delivery": "operator", "mara:gitopsRepoUrl": "git@git.example.com:o/r.git", "mara:gitopsRepoPassword": "p4ss-word" });
        expect(sshWithPassword.problems[0]).toContain("over which the Pulumi Kubernetes Operator authenticates with a key");
        const both = check({ ...OPERATOR, "mara:delivery": "operator", "mara:gitopsRepoPassword": "p4ss-word", "mara:gitopsRepoSshPrivateKey": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----\n" });
        expect(both.problems.join("\n")).toContain("the operator's git credential Secret holds one way in");
        const inUrl = validateConfig(withValues(fixture("minimal-aws"), { ...OPERATOR, "mara:delivery": "operator", "mara:gitopsRepoUrl": `https://oauth2:${REPO_TOKEN}@git.example.com/o/r.git` }));
        const text = inUrl.problems.map(formatProblem).join("\n");
        expect(text).toContain("the operator's Stack (spec.projectRepo)");
        expect(text).toContain("(Pulumi writes the operator's git credential Secret in the cluster)");
        expect(text).not.toContain(REPO_TOKEN);
        const http = check({ ...OPERATOR, "mara:delivery": "operator", "mara:gitopsRepoUrl": "http://git.example.com/o/r.git" });
        expect(http.warnings.join("\n")).toContain("what the Pulumi Kubernetes Operator applies to the cluster");
        for (const r of [sshWithPassword, both, http]) expect([...r.problems, ...r.warnings].join("\n")).not.toContain("Argo CD");
    });
});

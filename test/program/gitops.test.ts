/**
 * GitOps delivery (`mara:delivery`, docs/gitops.md) under Pulumi mocks, with the engine's URNs and aliases:
 *
 * - handover: the same resources as pulumi, every in-cluster one marked to stay on the cluster when it leaves
 *   the stack (retainOnDelete) and unprotected, the cloud's left as they were;
 * - gitops: the cloud, the cluster, the registry and the image stay (each matched by URN or alias, so nothing
 *   is replaced); the platform and the application leave the stack; Argo CD comes in (a Helm release of its chart
 *   with annotation tracking and Application health, the cluster Secret, the root Application), or, for a hub, only
 *   the objects to apply there;
 * - switching back: what gitops has besides Argo CD is matched again by the pulumi program.
 */
import * as pulumi from "@pulumi/pulumi";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { argoCdValues } from "../../components/argoCd";
import { ARGOCD_CM_SETTINGS, RESOURCES_FINALIZER } from "../../components/argoCd/applications";
import { validateConfig, type RawConfig } from "../../config";
import { CHARTS } from "../../contracts";
import { fixture } from "../support/config";
import { plainStrings, unwrapSecrets, type Registration } from "../support/mocks";
import { runProgram } from "../support/program";
import { podSecurityLabels } from "../../components/podSecurity";

const GITOPS = { "mara:gitopsRepoUrl": "https://git.example.com/platform-config.git", "mara:gitopsPath": "deploy/prod", "mara:fqdn": "mara.example.com" };
const withValues = (raw: RawConfig, values: Record<string, string>): RawConfig => ({ ...raw, values: { ...raw.values, ...values } });
const stack = (delivery: string, more: Record<string, string> = {}) => withValues(fixture("minimal-aws"), { ...GITOPS, "mara:delivery": delivery, "mara:protectData": "true", ...more });

const under = (r: Registration, type: string) => r.urn!.split("::")[2]!.split("$").includes(type);
const IN_CLUSTER = ["mara:platform:Platform", "mara:app:Application", "mara:k8s:VolumeRetention"];
const inCluster = (r: Registration) => IN_CLUSTER.some((t) => under(r, t)) && !under(r, "mara:registry:IngressControllerImage");
const outputValue = async (v: unknown) => new Promise<unknown>((resolve) => (pulumi.Output.isInstance(v) ? (v as pulumi.Output<unknown>).apply(resolve) : resolve(v)));

/**
 * The resources of `before` that no resource of `after` matches by URN or alias: what an update from one to the
 * other would replace. Only resources with state count (a component is a name; its children are what is kept).
 */
function replaced(before: Registration[], after: Registration[]): string[] {
    const known = new Set(after.flatMap((r) => [r.urn!, ...(r.aliases ?? [])]));
    return before.filter((r) => r.custom && !known.has(r.urn!)).map((r) => r.urn!);
}

describe("mara:delivery: handover", { timeout: 240_000 }, () => {
    it("registers what pulumi registers; every in-cluster resource stays on the cluster when it leaves the stack, unprotected; the cloud's are untouched", async () => {
        const [pulumiRun, handover] = [await runProgram(stack("pulumi"), { engineUrns: true }), await runProgram(stack("handover"), { engineUrns: true })];
        expect(handover.error).toBeUndefined();
        expect(handover.registrations.map((r) => r.urn).sort()).toEqual(pulumiRun.registrations.map((r) => r.urn).sort());
        const platform = handover.registrations.filter(inCluster);
        expect(platform.length).toBeGreaterThan(100);
        expect(platform.filter((r) => !r.retainOnDelete || r.protect).map((r) => r.urn)).toEqual([]);
        // Under pulumi, the stateful components are protected (mara:protectData), and only the CRDs are retained.
        expect(pulumiRun.registrations.filter(inCluster).some((r) => r.protect)).toBe(true);
        expect(pulumiRun.registrations.filter((r) => r.retainOnDelete && !/CustomResourceDefinition/.test(r.type)).map((r) => r.urn)).toEqual([]);
        expect(handover.registrations.filter((r) => !inCluster(r) && r.retainOnDelete).map((r) => r.urn)).toEqual([]);
    });
});

describe("mara:delivery: gitops", { timeout: 240_000 }, () => {
    it("keeps the cloud, the cluster, the registry and the image (each matched, nothing replaced); the platform and the application leave the stack", async () => {
        const [pulumiRun, gitops] = [await runProgram(stack("pulumi"), { engineUrns: true }), await runProgram(stack("gitops"), { engineUrns: true })];
        expect(gitops.error).toBeUndefined();
        expect(gitops.registrations.filter(inCluster).map((r) => r.urn)).toEqual([]);
        // What pulumi had outside the platform and the application, the image included, gitops has too.
        expect(replaced(pulumiRun.registrations.filter((r) => !inCluster(r)), gitops.registrations)).toEqual([]);
        const pushed = gitops.registrations.find((r) => r.type === "docker:index/registryImage:RegistryImage")!;
        expect(pushed.urn).toBe("urn:pulumi:dev::mara::mara:registry:IngressControllerImage$docker:index/registryImage:RegistryImage::platform-kic-image-push");
        expect(pushed.aliases).toContain(pulumiRun.registrations.find((r) => r.type === "docker:index/registryImage:RegistryImage")!.urn);
        // Switching back: everything but Argo CD is matched again.
        const argo = (r: Registration) => under(r, "mara:gitops:ArgoCd");
        expect(replaced(gitops.registrations.filter((r) => !argo(r)), pulumiRun.registrations)).toEqual([]);
        // Argo CD goes through the cluster's one Kubernetes provider, never a default provider.
        expect(new Set(gitops.registrations.filter((r) => argo(r) && r.custom && r.type.startsWith("kubernetes:")).map((r) => r.provider.split("::").at(-2)))).toEqual(new Set(["kubeconfig-provider"]));
    });

    it("installs Argo CD as a Helm release of the argo-cd chart, with annotation tracking and an Application health check, the cluster's facts, and a root Application on the render's argocd/ folder", async () => {
        const run = await runProgram(stack("gitops"));
        const argo = run.registrations.filter((r) => under(r, "mara:gitops:ArgoCd") && r.custom);
        const named = (type: string, name: string) => argo.find((r) => r.type === type && r.name === name)!;
        // The namespace, the release, the cluster Secret and the root Application, all after the ownership guard.
        expect(argo.map((r) => `${r.type} ${r.name}`).sort()).toEqual([
            "kubernetes:argoproj.io/v1alpha1:Application argocd-root-application",
            "kubernetes:core/v1:Namespace argocd-namespace",
            "kubernetes:core/v1:Secret argocd-cluster",
            "kubernetes:helm.sh/v3:Release argocd-release",
            "pulumi-nodejs:dynamic:Resource argocd-ownership",
        ]);
        const guard = named("pulumi-nodejs:dynamic:Resource", "argocd-ownership");
        for (const r of argo.filter((x) => x !== guard)) expect(r.dependencies, r.name).toContain(guard.urn);
        expect(unwrapSecrets(guard.inputs) as Record<string, unknown>).toMatchObject({
            objects: [{ kind: "Namespace", name: "argocd", origin: "program" }],
            releases: [{ name: "argocd", namespace: "argocd" }],
        });
        // Labelled as the platform's: mara doctor, run before every mara up, takes an unlabelled argocd namespace for another installation's.
        expect((named("kubernetes:core/v1:Namespace", "argocd-namespace").inputs as { metadata: unknown }).metadata).toEqual({
            name: "argocd",
            labels: { "app.kubernetes.io/part-of": "mara", ...podSecurityLabels("restricted") },
            annotations: { "mara.nginx.com/stack": "mara/dev" },
        });
        const release = named("kubernetes:helm.sh/v3:Release", "argocd-release");
        expect(release.inputs).toMatchObject({
            name: "argocd",
            namespace: "argocd",
            chart: CHARTS.argoCd.chart,
            version: CHARTS.argoCd.version,
            repositoryOpts: { repo: CHARTS.argoCd.repositoryUrl },
            timeout: CHARTS.argoCd.timeoutSeconds,
        });
        const values = release.inputs!.values as { configs: { cm: Record<string, string> }; dex: { enabled: boolean } };
        expect(values).toEqual(argoCdValues());
        expect(values.configs.cm).toMatchObject(ARGOCD_CM_SETTINGS);
        expect(values.configs.cm["application.resourceTrackingMethod"]).toBe("annotation");
        // The chart's CRDs come with the release (its default); the values do not turn them off.
        expect(values).not.toHaveProperty("crds");

        const root = named("kubernetes:argoproj.io/v1alpha1:Application", "argocd-root-application");
        expect(root.inputs).toMatchObject({
            metadata: { name: "mara", namespace: "argocd", finalizers: [RESOURCES_FINALIZER] },
            spec: { source: { repoURL: GITOPS["mara:gitopsRepoUrl"], targetRevision: "main", path: "deploy/prod/argocd" }, destination: { server: "https://kubernetes.default.svc" } },
        });
        // The root Application waits for the release (Argo CD's CRDs and controllers), so at destroy it goes first and Argo CD deletes what it synced.
        expect(root.dependencies).toContain(release.urn);

        const secret = unwrapSecrets(named("kubernetes:core/v1:Secret", "argocd-cluster").inputs) as { metadata: { labels: Record<string, string>; annotations: Record<string, string> }; stringData: Record<string, string> };
        expect(secret.metadata.labels).toMatchObject({ "argocd.argoproj.io/secret-type": "cluster", "mara.nginx.com/infra-type": "aws", "mara.nginx.com/region": "us-east-1" });
        expect(secret.metadata.annotations).toMatchObject({ "mara.nginx.com/infra-type": "aws", "mara.nginx.com/fqdn": "mara.example.com", "mara.nginx.com/repo-path": "deploy/prod" });
        expect(secret.metadata.annotations["mara.nginx.com/registry"]).toMatch(/\.dkr\.ecr\.us-east-1\.amazonaws\.com\//);
        expect(secret.metadata.annotations["mara.nginx.com/api-server"]).toMatch(/^https:\/\//);
        expect(secret.stringData).toMatchObject({ server: "https://kubernetes.default.svc" });
        expect(JSON.stringify(secret)).not.toMatch(/token|password|BEGIN/i);

        const outputs = run.outputs as Record<string, unknown>;
        expect(await outputValue(outputs.delivery)).toBe("gitops");
        expect(await outputValue(outputs.argocd_application)).toBe("mara");
        expect(await outputValue(outputs.argocd_version)).toBe(CHARTS.argoCd.version);
        expect(outputs.repository_url).toBeDefined();
        expect(outputs.kic_image_digest).toBeDefined();
        expect(outputs.application_url).toBeUndefined();
    });

    it("for an Argo CD on a hub: nothing of Argo CD in the cluster; the cluster Secret (no credential: on EKS the hub's IAM role) and the root Application as outputs", async () => {
        const run = await runProgram(stack("gitops", { "mara:gitopsArgoCd": "external" }));
        expect(run.error).toBeUndefined();
        expect(run.registrations.filter((r) => under(r, "mara:gitops:ArgoCd"))).toEqual([]);
        const outputs = run.outputs as Record<string, unknown>;
        const secret = parse(String(await outputValue(outputs.argocd_cluster_secret))) as { metadata: { namespace: string }; stringData: { name: string; server: string; config: string } };
        expect(secret.metadata.namespace).toBe("argocd");
        expect(secret.stringData.server).toMatch(/^https:\/\/.+/);
        expect(JSON.parse(secret.stringData.config)).toMatchObject({ awsAuthConfig: { clusterName: secret.stringData.name } });
        const root = parse(String(await outputValue(outputs.argocd_root_application))) as { spec: { source: { path: string } } };
        expect(root.spec.source.path).toBe("deploy/prod/argocd");
        expect((secret as unknown as { metadata: { labels: Record<string, string> } }).metadata.labels["mara.nginx.com/fleet"]).toBeUndefined();

        // In a fleet, the Secret carries its label, which the fleet's ApplicationSet selects by (test/render/fleet.test.ts).
        const fleet = await runProgram(stack("gitops", { "mara:gitopsArgoCd": "external", "mara:gitopsFleet": "prod-eu" }));
        expect(fleet.error).toBeUndefined();
        const labelled = parse(String(await outputValue((fleet.outputs as Record<string, unknown>).argocd_cluster_secret))) as { metadata: { labels: Record<string, string> } };
        expect(labelled.metadata.labels).toMatchObject({ "argocd.argoproj.io/secret-type": "cluster", "mara.nginx.com/fleet": "prod-eu", "mara.nginx.com/infra-type": "aws" });
        // A fleet named as YAML 1.1 writes a boolean or a date: kubectl reads the output as YAML 1.1, and must read a string.
        for (const name of ["on", "y", "2001-12-14"]) {
            const odd = await runProgram(stack("gitops", { "mara:gitopsArgoCd": "external", "mara:gitopsFleet": name }));
            const text = String(await outputValue((odd.outputs as Record<string, unknown>).argocd_cluster_secret));
            expect((parse(text, { version: "1.1" }) as { metadata: { labels: Record<string, unknown> } }).metadata.labels["mara.nginx.com/fleet"], name).toBe(name);
        }
    });

    it("writes a private repository's credential into Argo CD's repository Secret, all of it secret in the state; an SSH key for an SSH URL; no Secret without a credential", async () => {
        const TOKEN = "ghp_RepoTokenMarker0123456789";
        const run = await runProgram(stack("gitops", { "mara:gitopsRepoUsername": "robot", "mara:gitopsRepoPassword": TOKEN }));
        expect(run.error).toBeUndefined();
        const repository = run.registrations.find((r) => r.type === "kubernetes:core/v1:Secret" && r.name === "argocd-repository")!;
        expect((repository.inputs as { metadata: unknown }).metadata).toEqual({
            name: "mara-repository",
            namespace: "argocd",
            labels: { "argocd.argoproj.io/secret-type": "repository", "app.kubernetes.io/part-of": "mara" },
        });
        // As Argo CD's declarative setup documents it: url, username and password for HTTPS.
        expect(unwrapSecrets(repository.inputs!.stringData)).toEqual({ type: "git", url: GITOPS["mara:gitopsRepoUrl"], username: "robot", password: TOKEN });
        expect(plainStrings(repository.inputs!.stringData)).toEqual([]);
        // The token is nowhere else in what is registered, outside a secret.
        expect(run.registrations.flatMap((r) => plainStrings(r.inputs)).filter((t) => t.includes(TOKEN))).toEqual([]);
        expect(repository.dependencies).toContain(run.registrations.find((r) => r.name === "argocd-namespace")!.urn);

        const KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----";
        const ssh = await runProgram(stack("gitops", { "mara:gitopsRepoUrl": "git@git.example.com:org/platform-config.git", "mara:gitopsRepoSshPrivateKey": KEY }));
        expect(ssh.error).toBeUndefined();
        const sshSecret = ssh.registrations.find((r) => r.name === "argocd-repository")!;
        expect(unwrapSecrets(sshSecret.inputs!.stringData)).toEqual({ type: "git", url: "git@git.example.com:org/platform-config.git", sshPrivateKey: `${KEY}\n` });
        expect(plainStrings(sshSecret.inputs!.stringData)).toEqual([]);

        const none = await runProgram(stack("gitops"));
        expect(none.registrations.filter((r) => r.name === "argocd-repository")).toEqual([]);
    });

    it("a credential set for an Argo CD on a hub is named as doing nothing, and creates nothing", async () => {
        const run = await runProgram(stack("gitops", { "mara:gitopsArgoCd": "external", "mara:gitopsRepoPassword": "hub-token-0123456789", "mara:argoCdChartVersion": "10.9.0" }));
        expect(run.error).toBeUndefined();
        expect(run.registrations.filter((r) => r.type === "kubernetes:core/v1:Secret")).toEqual([]);
        expect(run.warnings.join("\n")).toContain("mara:argoCdChartVersion, mara:gitopsRepoPassword do nothing with mara:gitopsArgoCd external: Pulumi installs no Argo CD");
    });

    it("needs the repository, its folder and a host name; a wrong value is refused with the key", () => {
        const problems = (values: Record<string, string>) => (validateConfig(withValues(fixture("minimal-aws"), values)).problems ?? []).map((p) => `${p.key}: ${p.problem}`);
        expect(problems({ "mara:delivery": "gitops" })).toEqual([
            "mara:gitopsRepoUrl: is not set, and mara:delivery is gitops",
            "mara:gitopsPath: is not set, and mara:delivery is gitops",
            "mara:fqdn: is not set, and mara:delivery is gitops: Pulumi no longer creates the ingress load balancer, so the application's host cannot be its address",
        ]);
        expect(problems({ "mara:delivery": "handover", "mara:gitopsRepoUrl": "https://git.example.com/x.git", "mara:gitopsPath": "deploy/prod" })).toEqual([]);
        expect(problems({ ...GITOPS, "mara:delivery": "gitops", "mara:gitopsPath": "../up" })[0]).toMatch(/^mara:gitopsPath: /);
        expect(problems({ ...GITOPS, "mara:delivery": "argo" })[0]).toMatch(/^mara:delivery: /);
    });
});

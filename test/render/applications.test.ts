/**
 * `mara render` of a stack Argo CD delivers (`mara:delivery` gitops): beside the component folders, `argocd/` holds
 * an Application per folder, in the order their needs give, which the root Application syncs. The sync model
 * replays that: each component's Application after those it needs, each with its own waves.
 */
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import program from "../../index";
import { validateConfig, type RawConfig } from "../../config";
import { renderPlatform, RenderResult } from "../../render/render";
import { applicationWaves, checkSync } from "../../render/sync/check";
import { fixture } from "../support/config";

const GITOPS = { "mara:delivery": "gitops", "mara:gitopsRepoUrl": "https://git.example.com/platform-config.git", "mara:gitopsPath": "deploy/prod", "mara:fqdn": "mara.example.com" };

let queue: Promise<unknown> = Promise.resolve();
function render(values: Record<string, string>): Promise<RenderResult> {
    const next = queue.then(async () => {
        const base = fixture("minimal-aws");
        const raw: RawConfig = { ...base, values: { ...base.values, ...values } };
        return renderPlatform({ raw, config: validateConfig(raw).config!, program, secrets: { mode: "external", store: "mara", storeKind: "ClusterSecretStore", provider: "aws-secrets-manager", remoteKeyPrefix: "mara/" } });
    });
    queue = next.catch(() => undefined);
    return next;
}
const installed = render(GITOPS);

describe("mara render of a stack Argo CD delivers", () => {
    it("writes an Application per component folder into argocd/, which the root kustomization leaves out", async () => {
        const { files } = await installed;
        const folders = (parse(files.get("kustomization.yaml")!) as { resources: string[] }).resources;
        expect(folders).not.toContain("argocd");
        const apps = (parse(files.get("argocd/kustomization.yaml")!) as { resources: string[] }).resources;
        expect(apps).toEqual(folders.map((f) => `application-${f}.yaml`));
        const app = parse(files.get("argocd/application-platform-prometheus.yaml")!) as { metadata: Record<string, unknown>; spec: Record<string, unknown> };
        expect(app.metadata).toMatchObject({ name: "platform-prometheus", namespace: "argocd", finalizers: ["resources-finalizer.argocd.argoproj.io"] });
        expect(app.spec).toMatchObject({
            source: { repoURL: GITOPS["mara:gitopsRepoUrl"], targetRevision: "main", path: "deploy/prod/platform-prometheus" },
            destination: { server: "https://kubernetes.default.svc" },
            syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions: ["ServerSideApply=true"] },
        });
    }, 240_000);

    it("orders the Applications by what their objects need from each other, and their sync completes in that order", async () => {
        const { files } = await installed;
        const waves = applicationWaves(files);
        const before = (a: string, b: string) => expect(waves.get(a)!, `${a} before ${b}`).toBeLessThan(waves.get(b)!);
        // The OpenTelemetry operator's Certificate needs cert-manager's webhook; Bank of Sirius's ServiceMonitors the
        // Prometheus operator's CRDs, its Ingress the ingress controller and the ClusterIssuer.
        before("platform-cert-manager", "platform-observability");
        before("platform-prometheus", "bank-of-sirius");
        before("platform-ingress-controller", "bank-of-sirius");
        before("platform-cert-manager", "bank-of-sirius");
        expect(checkSync(files)).toEqual([]);
    }, 240_000);

    it("for an Argo CD on a hub, the Applications name the cluster as their destination", async () => {
        const { files } = await render({ ...GITOPS, "mara:gitopsArgoCd": "external" });
        const app = parse(files.get("argocd/application-bank-of-sirius.yaml")!) as { spec: { destination: Record<string, string> } };
        expect(app.spec.destination).toEqual({ name: validateConfig(fixture("minimal-aws")).config!.clusterName });
    }, 240_000);
});

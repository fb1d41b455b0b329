/**
 * The fleet's ApplicationSet in a render (components/argoCd/applicationSet.ts has its shape): for a stack a hub's Argo
 * CD delivers (`mara:gitopsArgoCd: external`) with `mara:gitopsFleet`, `argocd/fleet/` holds the ApplicationSet that
 * delivers this render to every cluster of the fleet, in place of the root Application. No Application syncs it: it is
 * applied on the hub (docs/gitops.md#fleets-one-hub-many-clusters).
 *
 * Before it is written, the sync model replays it (sync/clusterGenerator.ts) on a hub that holds this stack's own
 * cluster Secret, as the program outputs it: the ApplicationSet must make exactly one Application of it, syncing the
 * render's folder to this cluster's API server. So a label the Secret and the selector spell differently, or a template
 * the controller would fail, stops the render instead of delivering nothing.
 */
import { ApplicationSetManifest, FLEET_FOLDER, fleetApplicationSet } from "../components/argoCd/applicationSet";
import { folderPath, GitSource } from "../components/argoCd/applications";
import { asLabel, ClusterFacts, clusterSecretManifest } from "../components/argoCd/clusterSecret";
import type { KubeObject } from "../contracts/kubeObject";
import { RenderError } from "./errors";
import { toYaml } from "./layout";
import { generateFromClusters } from "./sync/clusterGenerator";

/** The API server the self-check's cluster Secret names (a render does not know the cluster's; TEST-NET-3, RFC 5737). */
const PROBE_SERVER = "https://203.0.113.10:6443";

/** What of the stack the fleet's ApplicationSet is made from. */
export interface FleetStack {
    /** `mara:gitopsFleet`. */
    fleet: string;
    /** `kubernetes:infra_type`. */
    infraType: string;
    /** The cluster's name, as the stack's cluster Secret names it. */
    clusterName: string;
    /** The cloud region, where there is one. */
    region?: string;
    /** Where the render is. */
    source: GitSource;
}

/** Refuses an ApplicationSet that would not deliver this render to this stack's own cluster (see the module comment). */
function assertSelectsItsOwnCluster(appSet: ApplicationSetManifest, stack: FleetStack): void {
    const facts: ClusterFacts = { clusterName: stack.clusterName, infraType: stack.infraType, ...(stack.region ? { region: stack.region } : {}), apiServer: PROBE_SERVER, source: stack.source, fleet: stack.fleet };
    const result = generateFromClusters(appSet as unknown as KubeObject, { secrets: [clusterSecretManifest(facts, "hub") as KubeObject] });
    const bug = (what: string) => new RenderError(`the fleet's ApplicationSet ${appSet.metadata.name} ${what}; this is a bug in mara render, please report it`);
    if ("error" in result) throw bug(`would fail in Argo CD's ApplicationSet controller: ${result.error}`);
    if (result.refused.length > 0) throw bug(`would make an Application Argo CD refuses: ${result.refused.map((r) => `${r.name}: ${r.reason}`).join("; ")}`);
    const [app, ...more] = result.applications;
    const spec = app?.spec as { source?: unknown; destination?: { server?: string } } | undefined;
    if (!app || more.length > 0) throw bug(`makes ${result.applications.length} Applications of this stack's own cluster Secret, not one`);
    const source = spec?.source as { path?: string; repoURL?: string; targetRevision?: string } | undefined;
    if (spec?.destination?.server !== PROBE_SERVER || source?.path !== folderPath(stack.source, "") || source.repoURL !== stack.source.repoUrl || source.targetRevision !== stack.source.revision) {
        throw bug(`would sync ${source?.repoURL} at ${source?.targetRevision}, ${source?.path}, to ${spec?.destination?.server}, not this render to this cluster`);
    }
}

/** The files of `argocd/fleet/`: the ApplicationSet, checked, and a kustomization to apply it on the hub with. */
export function fleetFiles(stack: FleetStack, header: string): Map<string, string> {
    const appSet = fleetApplicationSet(stack.fleet, stack.infraType, stack.source);
    assertSelectsItsOwnCluster(appSet, stack);
    const file = `applicationset-${appSet.metadata.name}.yaml`;
    const how =
        `# The fleet "${stack.fleet}": apply this folder on the hub (kubectl apply -k <this folder>) in place of the root Application. Argo CD then\n` +
        `# makes an Application mara-<cluster> for every cluster Secret labelled mara.nginx.com/fleet=${stack.fleet} and mara.nginx.com/infra-type=${asLabel(stack.infraType)}\n` +
        "# (each stack's argocd_cluster_secret output), syncing this render's folder to that cluster. Leaving the fleet keeps the platform running.\n";
    return new Map([
        [`${FLEET_FOLDER}/${file}`, `${header}${how}${toYaml(appSet)}`],
        [`${FLEET_FOLDER}/kustomization.yaml`, `${header}${toYaml({ apiVersion: "kustomize.config.k8s.io/v1beta1", kind: "Kustomization", resources: [file] })}`],
    ]);
}

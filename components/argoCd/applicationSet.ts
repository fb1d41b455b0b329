/**
 * A fleet: one hub's Argo CD delivering the platform to every cluster registered with it that belongs to the fleet.
 * Each stack of the fleet registers its cluster on the hub with the cluster Secret it outputs (clusterSecret.ts), whose
 * labels say its fleet (`mara:gitopsFleet`) and infrastructure type; this ApplicationSet's cluster generator selects the
 * Secrets with both labels and makes one Application per cluster, syncing the render's folder to that cluster's API
 * server (docs/gitops.md#fleets-one-hub-many-clusters).
 *
 * Argo CD's cluster generator (argo-cd applicationset/generators/cluster.go, v3.4) lists the cluster Secrets of its
 * namespace that match the selector and the label `argocd.argoproj.io/secret-type: cluster`, and gives the template each
 * one's `name`, `nameNormalized` (the name as a DNS subdomain, utils.SanitizeName), `server` and, in Go template mode,
 * `metadata.labels` and `metadata.annotations`. Choices, each for a reason:
 *
 * - **Go templates with `missingkey=error`**, as Argo CD's documentation of the generator recommends (Generators-Cluster.md).
 *   The template reads only `.nameNormalized` and `.server`, which the generator sets for every cluster: a missing key
 *   would fail the template for one cluster, and the controller then creates or updates no Application of the whole
 *   ApplicationSet (applicationset/controllers/template/template.go returns the first error, and the reconciler stops
 *   there).
 * - **A selector that is never empty**: with an empty one the generator adds the hub's own cluster (`in-cluster`), which
 *   has no Secret; the fleet's label excludes it.
 * - **Nothing a cluster says is ever parsed as a template**: the controller executes each string of the template once
 *   (utils.go, `Render.deeplyReplace`, a text/template per field), and what it substitutes is written out, not read
 *   again, so a cluster named `{{ .server }}` names an Application after that text, normalized. The template's own
 *   literals are the repository, revision and folder of the render, and a revision may hold `{{` (git allows braces in a
 *   branch name): every literal is written with {@link goTemplateLiteral}.
 * - **`preserveResourcesOnDeletion`**: a cluster that leaves the fleet (its label changed, its Secret deleted) or an
 *   ApplicationSet deleted deletes the generated Application but not the platform on the cluster (the controller adds no
 *   resources finalizer: utils.go `RenderTemplateParams`; Application-Deletion.md). A platform holds databases.
 */
import { APPLICATION_SYNC_POLICY, ARGOCD_NAMESPACE, folderPath, GitSource } from "./applications";
import { asLabel, CLUSTER_LABELS } from "./clusterSecret";

/** The folder of a render that holds the fleet's ApplicationSet (not synced by the root Application: applied on the hub). */
export const FLEET_FOLDER = "argocd/fleet";

/** The ApplicationSet's name: `mara-<fleet>` (the fleet is a DNS label, so the name is a DNS subdomain). */
export const fleetApplicationSetName = (fleet: string) => `mara-${fleet}`;

/**
 * Text a Go template prints as it is: every `{{` becomes the action `{{"{{"}}`, which prints it. Nothing else starts
 * an action (a `}}` outside one is text), and splitting at each `{{` from the left leaves a `{` at the end of no piece
 * but the last, so the join makes no new `{{`.
 */
export const goTemplateLiteral = (text: string) => text.split("{{").join('{{"{{"}}');

/** An ApplicationSet as a Kubernetes object. */
export interface ApplicationSetManifest {
    /** Argo CD's API group and version. */
    apiVersion: "argoproj.io/v1alpha1";
    /** Always `ApplicationSet`. */
    kind: "ApplicationSet";
    /** Its name, in Argo CD's namespace, with the platform's labels. */
    metadata: { name: string; namespace: string; labels: Record<string, string> };
    /** The generator and the template of the Applications it makes. */
    spec: Record<string, unknown>;
}

/**
 * The fleet's ApplicationSet: an Application `mara-<cluster>` for every cluster Secret on the hub labelled with the
 * fleet and the infrastructure type, syncing the render's folder (`source.path`: its root kustomization, every component
 * in its sync waves) to that cluster, automatically, as the render's own Applications do.
 *
 * @param fleet - the fleet (`mara:gitopsFleet`), a DNS label.
 * @param infraType - `kubernetes:infra_type` of the stacks whose render this is; a render for one cloud is not another's.
 * @param source - the repository, revision and folder of the render.
 */
export function fleetApplicationSet(fleet: string, infraType: string, source: GitSource): ApplicationSetManifest {
    const part = { "app.kubernetes.io/part-of": "mara" };
    return {
        apiVersion: "argoproj.io/v1alpha1",
        kind: "ApplicationSet",
        metadata: { name: fleetApplicationSetName(fleet), namespace: ARGOCD_NAMESPACE, labels: part },
        spec: {
            goTemplate: true,
            goTemplateOptions: ["missingkey=error"],
            generators: [{ clusters: { selector: { matchLabels: { [CLUSTER_LABELS.fleet]: fleet, [CLUSTER_LABELS.infraType]: asLabel(infraType) } } } }],
            syncPolicy: { preserveResourcesOnDeletion: true },
            template: {
                metadata: {
                    name: "mara-{{ .nameNormalized }}",
                    labels: { ...part, [CLUSTER_LABELS.fleet]: goTemplateLiteral(fleet) },
                },
                spec: {
                    project: "default",
                    source: { repoURL: goTemplateLiteral(source.repoUrl), targetRevision: goTemplateLiteral(source.revision), path: goTemplateLiteral(folderPath(source, "")) },
                    // Every object of a render names its namespace; the Applications need none of their own.
                    destination: { server: "{{ .server }}" },
                    syncPolicy: APPLICATION_SYNC_POLICY,
                },
            },
        },
    };
}

/**
 * The ownership guard: one resource per cluster that every Kubernetes object of the platform waits for, and that
 * refuses — before any of them is created — to take over a namespace, a cluster-scoped object or a Helm release that
 * the platform did not make (./rule.ts). Without it, `pulumi up` run directly would take such an object over: the
 * Kubernetes provider's server-side apply creates by upserting, and `pulumi destroy` would then delete it with
 * everything in it.
 *
 * The guard is derived from what is registered, not from a list anyone keeps: each component that puts objects on a
 * cluster builds itself with {@link guardedOptions}, whose resource transformation sees every resource of its tree as
 * it is registered (Pulumi's `transformations` option, which runs in the program's process, under test mocks too).
 * For every Kubernetes resource it adds the guard to `dependsOn`; for a namespace, a cluster-scoped object or a Helm
 * release it also adds the name to the guard's list and, for an object, the platform's marks (./marks.ts). The list
 * is closed once the program has finished registering (the guard's inputs resolve on the next turn of the event
 * loop), so every component built in the same turn — the Platform and the Application of this project's program —
 * shares one guard, and a refusal stops them all.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { claimOfType, ObjectClaim, RELEASE_TYPE, ReleaseClaim } from "./claims";
import { stackIdentity, withOwnershipMarks } from "./marks";
import { guardProvider } from "./provider";
import { remedyFor } from "./remedies";
import { deploysWithEngine, refuseStuckReleases } from "./stuckReleases";

/** The guard as a resource in the graph (`pulumi-nodejs:dynamic:Resource`). */
class OwnershipGuard extends pulumi.dynamic.Resource {
    constructor(name: string, props: Record<string, pulumi.Input<unknown>>, opts: pulumi.CustomResourceOptions) {
        super(guardProvider, name, props, opts);
    }
}

/** The claims of one guard, collected while the program registers. */
interface Batch {
    readonly guard: OwnershipGuard;
    readonly objects: ObjectClaim[];
    readonly releases: ReleaseClaim[];
    open: boolean;
}

/** The component at the top of a guarded tree: the guard is named after it and is its child. */
interface Root {
    readonly name: string;
    readonly resource: pulumi.Resource;
}

/** Open batches by the Kubernetes provider their objects use (`ambient` for none: the provider's default). */
const batches = new Map<pulumi.ProviderResource | "ambient", Batch>();
/** Guards made so far under each root, so a second one (another cluster, or a late registration) gets a name of its own. */
const guardsOf = new WeakMap<pulumi.Resource, number>();
/** Every resource of a guarded tree, and the root of its tree. */
const roots = new WeakMap<pulumi.Resource, Root>();
/** The type token of every component of a guarded tree, for the remedies. */
const componentTypes = new WeakMap<pulumi.Resource, string>();

/** A provider's setting as the SDK exposes it: each input of a provider resource is an Output of the same name. */
function providerSetting(provider: pulumi.ProviderResource, key: "kubeconfig" | "context" | "cluster"): pulumi.Output<string | undefined> {
    const value = (provider as unknown as Record<string, unknown>)[key];
    if (!pulumi.Output.isInstance(value)) {
        throw new Error(`The platform cannot tell which cluster its Kubernetes provider reaches (it exposes no \`${key}\`), so it cannot check that the names it creates are free; build the provider with new k8s.Provider({ kubeconfig }) or the Kubeconfig component.`);
    }
    return value as pulumi.Output<string | undefined>;
}

/**
 * The provider's kubeconfig, once the claimed releases are known not to be stuck from an interrupted run
 * (./stuckReleases.ts). The guard's inputs are what every Kubernetes object of the tree waits for, so a stuck release
 * stops the run before any of them is sent to the cluster, on every `pulumi up` (the guard's own check runs only when
 * its claims change). The value is the kubeconfig itself, so the guard's inputs, and its diff, are as before. A guard
 * of the ambient provider (objects given no Kubernetes provider) has no kubeconfig input to hold back, and no check.
 */
function unlessStuck(provider: pulumi.ProviderResource, closed: Promise<void>, releases: readonly ReleaseClaim[]): pulumi.Output<string | undefined> {
    const settings = pulumi.all([providerSetting(provider, "kubeconfig"), providerSetting(provider, "context"), providerSetting(provider, "cluster")]);
    return settings.apply(async ([kubeconfig, context, cluster]) => {
        if (!deploysWithEngine()) return kubeconfig;
        await closed;
        await refuseStuckReleases({ kubeconfig, context, cluster }, releases, pulumi.getStack());
        return kubeconfig;
    });
}

function openBatch(key: pulumi.ProviderResource | "ambient", root: Root): Batch {
    // The guard is the root's child, so its URN is unique even where two roots share a name (a CertManager and an
    // IngressController both named "x").
    const n = (guardsOf.get(root.resource) ?? 0) + 1;
    guardsOf.set(root.resource, n);
    const name = n === 1 ? `${root.name}-ownership` : `${root.name}-ownership-${n}`;
    let close: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => (close = resolve));
    const objects: ObjectClaim[] = [];
    const releases: ReleaseClaim[] = [];
    const access = key === "ambient" ? {} : { kubeconfig: pulumi.secret(unlessStuck(key, closed, releases)), context: providerSetting(key, "context"), cluster: providerSetting(key, "cluster") };
    const guard = new OwnershipGuard(
        name,
        {
            identity: stackIdentity(pulumi.getProject(), pulumi.getStack()),
            // Resolved once the program has registered everything of this turn (see the module's comment).
            objects: closed.then(() => objects),
            releases: closed.then(() => releases),
            ...access,
        },
        { parent: root.resource, additionalSecretOutputs: ["kubeconfig"] },
    );
    const batch: Batch = { guard, objects, releases, open: true };
    batches.set(key, batch);
    setImmediate(() => {
        batch.open = false;
        if (batches.get(key) === batch) batches.delete(key);
        close();
    });
    return batch;
}

/** The guard the objects of `provider` wait for: the open one, or a new one named after `root`. */
function batchFor(provider: pulumi.ProviderResource | undefined, root: Root): Batch {
    const key = provider ?? "ambient";
    const open = batches.get(key);
    return open?.open ? open : openBatch(key, root);
}

/** The Kubernetes provider a resource being registered will use, as the SDK picks it (opts, then its parent's). */
function kubernetesProvider(type: string, opts: pulumi.CustomResourceOptions & pulumi.ComponentResourceOptions): pulumi.ProviderResource | undefined {
    if (opts.provider && k8s.Provider.isInstance(opts.provider)) return opts.provider;
    const own = Array.isArray(opts.providers) ? opts.providers.find((p) => k8s.Provider.isInstance(p)) : (opts.providers as Record<string, pulumi.ProviderResource> | undefined)?.kubernetes;
    return own ?? opts.parent?.getProvider(type);
}

/** `dependsOn` with the guard added, whatever form it had (the SDK flattens lists, promises and Outputs of them). */
function withGuard(dependsOn: pulumi.CustomResourceOptions["dependsOn"], guard: pulumi.Resource): pulumi.Input<pulumi.Input<pulumi.Resource>[]> {
    if (dependsOn === undefined) return [guard];
    if (Array.isArray(dependsOn)) return [...dependsOn, guard];
    return [dependsOn as pulumi.Input<pulumi.Resource>, guard];
}

type Metadata = { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };

const isPlain = (m: unknown): m is Record<string, unknown> => !!m && typeof m === "object" && !pulumi.Output.isInstance(m) && !(m instanceof Promise);

/** The object's metadata with the platform's marks. */
function marked(metadata: Metadata, identity: string): pulumi.Input<Metadata> {
    if ((metadata.labels === undefined || isPlain(metadata.labels)) && (metadata.annotations === undefined || isPlain(metadata.annotations))) return withOwnershipMarks(metadata, identity);
    return pulumi.output(metadata as pulumi.Input<Metadata>).apply((m) => withOwnershipMarks(m, identity));
}

/**
 * Why a name must be known when its object is registered: the guard's list is its input, and every object waits for the
 * guard, so a name that is another object's output would wait for itself.
 */
const KNOWN_NAMES = "the ownership guard checks every such name before anything is created, so it must be a plain string when the object is registered";

/** Namespaces created in each component, by their names: a release in one is judged by it. */
const namespacesOf = new WeakMap<pulumi.Resource, string[]>();

/** The name of the namespace a release of `component` is installed in: its own string, or the one namespace its component created. */
function releaseNamespace(namespace: unknown, component: pulumi.Resource | undefined, release: string): string {
    if (typeof namespace === "string") return namespace;
    const made = component ? (namespacesOf.get(component) ?? []) : [];
    if (made.length === 1) return made[0]!;
    throw new Error(`Helm release ${release}: its namespace must be a string, or the namespace its component created (it created ${made.length}); ${KNOWN_NAMES}.`);
}

/** The transformation of a guarded tree whose top is the component `rootName` about to be built. */
function ownershipTransformation(rootName: string): pulumi.ResourceTransformation {
    let root: Root | undefined;
    return ({ resource, type, name, props, opts }) => {
        // The first resource it sees is the component it was given to.
        root ??= { name: rootName, resource };
        roots.set(resource, root);
        if (!type.startsWith("kubernetes:")) {
            componentTypes.set(resource, type);
            return undefined;
        }
        const batch = batchFor(kubernetesProvider(type, opts), root);
        const guardedOpts = { ...opts, dependsOn: withGuard(opts.dependsOn, batch.guard) };
        const component = opts.parent ? componentTypes.get(opts.parent) : undefined;
        if (type === RELEASE_TYPE) {
            const release = props.name;
            if (typeof release !== "string") throw new Error(`${name}: the Helm release's name must be a string; ${KNOWN_NAMES}.`);
            const remedy = remedyFor(component, "Release");
            batch.releases.push({ name: release, namespace: releaseNamespace(props.namespace, opts.parent, release), ...(remedy ? { remedy } : {}) });
            return { props, opts: guardedOpts };
        }
        const claim = claimOfType(type);
        if (!claim) return { props, opts: guardedOpts };
        const metadata = props.metadata;
        if (!isPlain(metadata) || typeof metadata.name !== "string" || !metadata.name) {
            throw new Error(`${name}: the ${claim.kind}'s metadata.name must be a string; ${KNOWN_NAMES}.`);
        }
        if (claim.kind === "Namespace" && opts.parent) namespacesOf.set(opts.parent, [...(namespacesOf.get(opts.parent) ?? []), metadata.name]);
        const remedy = remedyFor(component, claim.kind);
        batch.objects.push({ ...claim, name: metadata.name, ...(remedy ? { remedy } : {}) });
        return { props: { ...props, metadata: marked(metadata as Metadata, stackIdentity(pulumi.getProject(), pulumi.getStack())) }, opts: guardedOpts };
    };
}

/**
 * `opts` for a component that puts objects on a cluster: at the top of a tree, with the transformation that makes every
 * Kubernetes object of the tree wait for the ownership guard and claims its names; inside a guarded tree (a Platform's
 * add-on), unchanged, since the tree's transformation already reaches it.
 */
export function guardedOptions(name: string, opts?: pulumi.ComponentResourceOptions): pulumi.ComponentResourceOptions {
    if (opts?.parent && roots.has(opts.parent)) return opts;
    return { ...opts, transformations: [...(opts?.transformations ?? []), ownershipTransformation(name)] };
}

/**
 * Adds an object a chart of the component creates under a fixed cluster-wide name (the IngressClass) to the guard's
 * list: Helm refuses to install over it, but only halfway through a run, after other objects were created.
 */
export function claimChartObject(component: pulumi.ComponentResource, claim: Omit<ObjectClaim, "origin" | "remedy"> & { release: ReleaseClaim }): void {
    const root = roots.get(component);
    if (!root) throw new Error("claimChartObject: the component was not built with guardedOptions");
    batchFor(component.getProvider("kubernetes:core/v1:Namespace"), root).objects.push({ ...claim, origin: "chart" });
}

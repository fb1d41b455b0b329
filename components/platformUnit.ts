/**
 * How a built-in add-on takes its place on the {@link Platform}: the Platform's arguments and members, and the
 * {@link PlatformUnit} each add-on unit defines in its folder (`components/<unit>/platformUnit.ts`).
 *
 * A unit declares its own group of {@link PlatformArgs} and its own member of the Platform there, by adding them to
 * {@link PlatformArgs} and {@link PlatformAddOns} (TypeScript's declaration merging), beside how it is created; the
 * Platform creates the units of components/platformUnits.ts in that table's order. So an add-on is one folder and
 * one line of that table, and its arguments and member keep their TSDoc where the add-on is written.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ContainerRegistry, PlatformFacts } from "../contracts";
import type { AddOn } from "./addOn";
import type { Secrets, SecretsArgs } from "./secrets";

/** Where the platform's volumes (Elasticsearch, Prometheus, Grafana, the application's databases) live. */
export interface PlatformStorageArgs {
    /**
     * StorageClass of every volume. Default: a class the platform creates where the cluster facts name a
     * provisioner (`mara-volumes`), else the facts' `storageClass`, else the cluster's default class.
     */
    className?: string;
    /** The platform's own class retains volumes when their claims are deleted. Default false (they are deleted). */
    retainVolumes?: boolean;
}

/**
 * Arguments of {@link Platform}: one group per add-on, each optional except the facts about the cluster. The
 * groups of the built-in add-ons are declared by their units (`components/<unit>/platformUnit.ts`).
 */
export interface PlatformArgs {
    /**
     * What the add-ons need to know about the cluster: log paths, container runtime, how load balancers
     * are addressed and annotated, storage. The providers export these per cloud (`EKS_PLATFORM`,
     * `doksPlatform(...)`, `lkePlatform(...)`, `EXISTING_CLUSTER_PLATFORM`). Required.
     */
    cluster: PlatformFacts;
    /** The registry the ingress controller image is copied to; none: the image is pulled from where it is published. */
    registry?: ContainerRegistry;
    /** The StorageClass of the platform's volumes. */
    storage?: PlatformStorageArgs;
    /** The platform's credentials; each one left out is generated. */
    secrets?: SecretsArgs;
    /** Protect the stateful add-ons (log store, metrics) from `pulumi destroy`. Default false. */
    protectData?: boolean;
    /**
     * Add-ons of your own, installed after the platform's from its outputs (docs/library.md, "Your own add-on"); each
     * named `<platform>-<add-on name>` and found in {@link Platform.addOns} under its name. Default none.
     */
    addOns?: readonly AddOn[];
}

/**
 * The Platform's members that are built-in add-ons, each declared by its unit: `platform.certManager`,
 * `platform.prometheus` and so on.
 */
export interface PlatformAddOns {}

/** What a unit is given when the Platform creates it. */
export interface UnitContext {
    /** The Platform's name; a unit's component is named `<platform>-<add-on>`. */
    readonly name: string;
    /** The Platform itself: the parent of every add-on (through {@link child}). */
    readonly platform: pulumi.Resource;
    /** The Platform's arguments, every group. */
    readonly args: PlatformArgs;
    /** What the cluster offers: {@link PlatformArgs.cluster}. */
    readonly facts: PlatformFacts;
    /** The add-ons created before this one, in the table's order. */
    readonly created: Readonly<Partial<PlatformAddOns>>;
    /** The platform's credentials, configured or generated. */
    readonly secrets: Secrets;
    /** StorageClass of the platform's volumes; undefined: the cluster's default class. Known after the cluster's units. */
    readonly storageClassName?: pulumi.Output<string>;
    /** What a component holding claims on {@link storageClassName} must depend on. Known after the cluster's units. */
    readonly storageDependencies: pulumi.Resource[];
    /** The namespaces the platform's add-ons run in, the units' {@link PlatformUnit.namespaces}: the admission policies' scope. */
    readonly namespaces: readonly string[];
    /**
     * Options of a child of the Platform, with the alias of the child name it had before children were named after
     * the Platform (`was`).
     */
    child(was: string): pulumi.ComponentResourceOptions;
    /** {@link child}, for a stateful add-on: protected with `protectData`, and depending on the storage dependencies. */
    stateful(was: string): pulumi.ComponentResourceOptions;
}

/**
 * A built-in add-on on the Platform: how it is created from the Platform's arguments and the add-ons before it,
 * and the namespaces it runs in.
 */
export interface PlatformUnit {
    /** Creates the add-on (nothing when its arguments leave it out) and returns the Platform members it sets. */
    create(ctx: UnitContext): Partial<PlatformAddOns>;
    /** The namespaces it runs in, given the Platform's arguments; none when it is not installed. */
    namespaces(args: PlatformArgs): string[];
}

/**
 * The add-on `id`, which the unit `by` is created from; a unit placed before it in components/platformUnits.ts is a
 * mistake in this package, said as such rather than as an `undefined` deep inside a component.
 */
export function createdBefore<K extends keyof PlatformAddOns>(created: Readonly<Partial<PlatformAddOns>>, id: K, by: string): NonNullable<PlatformAddOns[K]> {
    const found = created[id];
    if (found === undefined || found === null) throw new Error(`the Platform's ${by} is created from its ${String(id)}, which components/platformUnits.ts must list first`);
    return found as NonNullable<PlatformAddOns[K]>;
}

/**
 * What a rule is. Each rule is written once, as one value: its id, what it requires, its default level, the
 * check the Pulumi policy pack runs, and, for rules about Kubernetes objects, the CEL the cluster runs as a
 * ValidatingAdmissionPolicy. Both halves are tested against the same passing and failing examples, so the pack
 * and the cluster cannot drift apart without a test failing.
 */
import type { PolicyConfigJSONSchema } from "@pulumi/policy/schema";
import type { KubeObject } from "../contracts/kubeObject";

/** The Kubernetes object a rule checks; defined once, in contracts/, for the rules and the render alike. */
export type { KubeObject };

/**
 * How a violation is treated: `mandatory` stops `pulumi up` (and is refused in the cluster in `deny` mode),
 * `advisory` is reported and lets it go on (a warning in the cluster), `disabled` turns the rule off.
 */
export type Level = "advisory" | "mandatory" | "disabled";

/** One setting of a rule: what it means, its JSON schema in the pack's configuration, and its default. */
export interface RuleSetting<T> {
    /** What the setting changes, for the pack's configuration schema and docs/policy.md. */
    readonly description: string;
    /** JSON schema of the value, as `pulumi preview --policy-pack-config` checks it. */
    readonly schema: PolicyConfigJSONSchema;
    /** The value when the pack's configuration does not set it. */
    readonly default: T;
}

/** The settings of a rule, by name. */
export type RuleSettings<S> = { readonly [K in keyof S]: RuleSetting<S[K]> };


/** A resource as Pulumi registers it: its type token and its inputs. */
export interface PulumiResource {
    /** Type token, e.g. `aws:ecr/repository:Repository`. */
    readonly type: string;
    /** Logical name; the examples and offline runs use it to say which resource broke a rule. */
    readonly name: string;
    /** Inputs as the engine receives them (secrets unwrapped, as the pack sees them). */
    readonly props: Record<string, unknown>;
}

/** What a rule says about a platform namespace the cluster's binding leaves out, and why. */
export interface NamespaceExemption {
    /** The namespace, e.g. `kube-system`. */
    readonly namespace: string;
    /** Why objects there cannot follow the rule (what runs there, and what it needs). */
    readonly why: string;
}

/** Fields every rule has. */
interface RuleBase<S> {
    /** The policy's name in the pack and in the cluster (`mara-<id>`): lower case words and dashes. */
    readonly id: string;
    /** What the rule requires, in one sentence; shown with every violation. */
    readonly description: string;
    /** The level when the pack's configuration does not override it. */
    readonly level: Level;
    /** Settings the pack's configuration (and the admission policies' arguments) may change. */
    readonly settings: RuleSettings<S>;
}

/** A group of Kubernetes resources a rule applies to: API group and kind (and the resource name the API server matches on). */
export interface KubernetesTarget {
    /** API group; "" for the core group. */
    readonly group: string;
    readonly kind: string;
    /** Plural resource name, as admission rules match it (`deployments`). */
    readonly resource: string;
    /**
     * True for a kind without a namespace (IngressClass, StorageClass): a binding's namespaceSelector never leaves one
     * out, so the platform's scope selects these by the platform's label instead. Default false.
     */
    readonly clusterScoped?: boolean;
}

/** A CEL validation of a ValidatingAdmissionPolicy: true when the object follows the rule. */
export interface CelValidation {
    readonly expression: string;
    /** Why the object is refused, as the API server reports it. */
    readonly message: string;
}

/**
 * A rule about one Kubernetes object. The pack checks the objects Pulumi declares; the admission policy checks every
 * object the API server admits (Helm's, a GitOps sync's, `kubectl`'s).
 */
export interface KubernetesRule<S = Record<string, never>> extends RuleBase<S> {
    readonly kind: "kubernetes";
    /** The kinds the rule looks at. */
    readonly targets: readonly KubernetesTarget[];
    /** The violations of one object (an empty list when it follows the rule). */
    check(object: KubeObject, settings: S): string[];
    /**
     * The admission side: CEL over `object` (and `request`, `variables`), with the settings as variables of the
     * same names. Variables listed here are evaluated in order after the settings.
     */
    readonly admission: {
        readonly variables?: readonly { readonly name: string; readonly expression: string }[];
        readonly validations: readonly CelValidation[];
    };
    /** Namespaces the cluster's binding leaves out, each with its reason; the pack has no such exemption. */
    readonly exemptions?: readonly NamespaceExemption[];
    /** Objects that follow the rule and objects that break it, under the default settings. */
    readonly examples: { readonly pass: readonly KubeObject[]; readonly fail: readonly KubeObject[] };
}

/** A rule about one cloud resource (an EKS cluster, an ECR repository, a volume): pack only, the cluster never sees these. */
export interface ResourceRule<S = Record<string, never>> extends RuleBase<S> {
    readonly kind: "resource";
    /** The Pulumi type tokens the rule looks at. */
    readonly types: readonly string[];
    /** The violations of one resource's inputs. */
    check(resource: PulumiResource, settings: S): string[];
    readonly examples: { readonly pass: readonly PulumiResource[]; readonly fail: readonly PulumiResource[] };
}

/** A violation a stack rule found, with the resource it names, if one. */
export interface StackViolation {
    readonly message: string;
    /** Name of the resource to blame (the pack reports its URN). */
    readonly resource?: string;
}

/** A rule about the stack as a whole (how many of something it declares). */
export interface StackRule<S = Record<string, never>> extends RuleBase<S> {
    readonly kind: "stack";
    check(resources: readonly PulumiResource[], settings: S): StackViolation[];
    /** Whole stacks (lists of resources) that follow the rule and that break it. */
    readonly examples: { readonly pass: readonly (readonly PulumiResource[])[]; readonly fail: readonly (readonly PulumiResource[])[] };
}

/** Any rule. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Rule = KubernetesRule<any> | ResourceRule<any> | StackRule<any>;

/** The default value of every setting of a rule. */
export function defaultSettings<S>(rule: { readonly settings: RuleSettings<S> }): S {
    return Object.fromEntries(Object.entries(rule.settings).map(([k, s]) => [k, (s as RuleSetting<unknown>).default])) as S;
}

/**
 * Pulumi mocks for this example's tests (as the eks-ingress example's, each example standing alone): every registration is recorded with what Pulumi's own mock monitor
 * does not pass on to `newResource` — parent, the providers map that multi-language components such as
 * eks.Cluster receive, and dependencies — so a test can check which provider each resource really uses.
 */
import * as pulumi from "@pulumi/pulumi";

// Not in the SDK's typings, but the stable way to wait until every registration has been answered.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const settings: { waitForRPCs(): Promise<void> } = require("@pulumi/pulumi/runtime/settings");

/** One registered resource, as the engine would see it. */
export interface Registration {
    type: string;
    name: string;
    urn?: string;
    parent: string;
    custom: boolean;
    /** Provider reference `<urn>::<id>`; "" means a default provider. */
    provider: string;
    /** Provider references by package, as sent for components. */
    providers: Record<string, string>;
    /** URNs this resource depends on. */
    dependencies: string[];
    inputs?: Record<string, unknown>;
}

/** Outputs a real deployment would compute, for the resources whose outputs the program reads. */
function computed(args: pulumi.runtime.MockResourceArgs): Record<string, unknown> {
    switch (args.type) {
        case "random:index/randomPassword:RandomPassword":
            return { result: `generated-${args.name}` };
        case "kubernetes:helm.sh/v3:Release":
            return { status: { name: args.inputs.name, namespace: args.inputs.namespace, status: "deployed" } };
        case "kubernetes:core/v1:Service":
            return (args.inputs.spec as { type?: string } | undefined)?.type === "LoadBalancer"
                ? { status: { loadBalancer: { ingress: [{ ip: "203.0.113.10" }] } } }
                : {};
        default:
            return {};
    }
}

/** Installs the mocks with `config` (`namespace:key` → value; `secretKeys` as stored encrypted) and returns the list registrations are recorded in. */
export async function recordResources(config: Record<string, string>, project: string, secretKeys: string[] = [], stack = "test"): Promise<Registration[]> {
    const registrations: Registration[] = [];
    pulumi.runtime.setAllConfig(config, secretKeys);
    await pulumi.runtime.setMocks(
        {
            newResource(args) {
                const reg = registrations.find((r) => r.type === args.type && r.name === args.name && r.inputs === undefined);
                if (reg) reg.inputs = args.inputs;
                return { id: args.custom ? `${args.name}-id` : undefined, state: { ...args.inputs, ...computed(args) } };
            },
            call(args) {
                throw new Error(`no mock for invoke ${args.token}`);
            },
        },
        project,
        stack,
        false,
    );
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const monitor: any = pulumi.runtime.getMonitor();
    const register = monitor.registerResource.bind(monitor);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    monitor.registerResource = (req: any, cb: any) => {
        const providers: Record<string, string> = {};
        req.getProvidersMap().forEach((v: string, k: string) => (providers[k] = v));
        const reg: Registration = {
            type: req.getType(),
            name: req.getName(),
            parent: req.getParent(),
            custom: req.getCustom(),
            provider: req.getProvider(),
            providers,
            dependencies: req.getDependenciesList(),
        };
        registrations.push(reg);
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        return register(req, (err: any, resp: any) => {
            if (resp) reg.urn = resp.getUrn();
            cb(err, resp);
        });
    };
    return registrations;
}

/** Waits until everything the program started has been registered. */
export const settle = (): Promise<void> => settings.waitForRPCs();

/** The value of a known Output. */
export const valueOf = <T>(output: pulumi.Output<T>): Promise<T> => new Promise((resolve) => output.apply(resolve));

/** The registration with this type and name; throws, listing what exists, when there is none. */
export function find(registrations: Registration[], type: string, name: string): Registration {
    const found = registrations.find((r) => r.type === type && r.name === name);
    if (!found) throw new Error(`no ${type} named ${name}; registered: ${registrations.map((r) => `${r.type}::${r.name}`).join(", ")}`);
    return found;
}

/** How resources that use a provider refer to it: `<urn>::<id>`. */
export const providerRef = (r: Registration): string => `${r.urn}::${r.name}-id`;

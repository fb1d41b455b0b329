import * as digitalocean from "@pulumi/digitalocean";
import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";
import { DEFAULTS, RegistryCredentials } from "../contracts";

/** Arguments of {@link Docr}. */
export interface DocrArgs {
    /** Registry name. Default: derived from `clusterName` as `<clusterName>-<6 random characters>` (names are global across DigitalOcean). */
    name?: string;
    /** Name used to derive the default registry name. Required unless `name` is given. */
    clusterName?: string;
    /** Use the account's existing registry `name` instead of creating one; it is then never deleted. Default false. */
    adopt?: boolean;
    /** Subscription tier of a created registry. Default `starter`. */
    tier?: "starter" | "basic" | "professional";
    /** Region of a created registry. Required unless adopting. */
    region?: string;
    /** The DigitalOcean API token; the registry accepts it for pushes. Secret. Required. */
    token: pulumi.Input<string>;
}

/**
 * The DigitalOcean container registry for the ingress controller image (MARA's container-registry and
 * container-registry-credentials projects). DigitalOcean allows one registry per account: create one, or
 * adopt the existing one (MARA decided by shelling out to `doctl` during preview; here it is a setting).
 * Pods pull with long-lived read-only credentials; pushes authenticate with the API token, which does
 * not expire between runs the way short-lived write credentials would.
 */
export class Docr extends pulumi.ComponentResource {
    /** Registry name. */
    public readonly registryName: pulumi.Output<string>;
    /** Repository for the ingress controller image, e.g. `registry.digitalocean.com/<name>/nginx-ingress`. */
    public readonly repositoryUrl: pulumi.Output<string>;
    /** Push credentials; secret. */
    public readonly pushCredentials: pulumi.Output<RegistryCredentials>;
    /** Read-only pull credentials for the cluster; secret. */
    public readonly pullCredentials: pulumi.Output<RegistryCredentials>;

    constructor(name: string, args: DocrArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:registry:Docr", name, {}, opts);
        if (args.adopt && !args.name) throw new Error("Docr: adopting the account's registry needs its name.");
        if (!args.adopt && !args.region) throw new Error("Docr: region is required to create a registry.");
        if (!args.name && !args.clusterName) throw new Error("Docr: give a registry name or the clusterName to derive one from.");

        let registryName: pulumi.Output<string>;
        let endpoint: pulumi.Output<string>;
        if (args.adopt) {
            const existing = digitalocean.getContainerRegistryOutput({ name: args.name! }, { parent: this });
            registryName = existing.name;
            endpoint = existing.endpoint;
        } else {
            const suffix = args.name
                ? undefined
                : new random.RandomString(`${name}-suffix`, { length: 6, special: false, upper: false }, { parent: this });
            const registry = new digitalocean.ContainerRegistry(
                `${name}-registry`,
                {
                    name: suffix ? pulumi.interpolate`${args.clusterName}-${suffix.result}` : args.name!,
                    subscriptionTierSlug: args.tier ?? DEFAULTS.docr.tier,
                    region: args.region,
                },
                { parent: this },
            );
            registryName = registry.name;
            endpoint = registry.endpoint;
        }
        const pull = new digitalocean.ContainerRegistryDockerCredentials(
            `${name}-pull`,
            // Read-only and long-lived: the pull secret in the cluster must keep working between runs.
            { registryName, write: false, expirySeconds: 1_576_800_000 },
            { parent: this },
        );
        this.registryName = registryName;
        this.repositoryUrl = pulumi.interpolate`${endpoint}/nginx-ingress`;
        this.pushCredentials = pulumi.secret(pulumi.output(args.token).apply((token) => ({ server: "registry.digitalocean.com", username: token, password: token })));
        this.pullCredentials = pulumi.secret(pull.dockerCredentials.apply(credentialsFromDockerConfig));
        this.registerOutputs({ registryName: this.registryName, repositoryUrl: this.repositoryUrl, pushCredentials: this.pushCredentials, pullCredentials: this.pullCredentials });
    }
}

/** Reads the first registry's user and password from a `.dockerconfigjson` document. */
export function credentialsFromDockerConfig(json: string): RegistryCredentials {
    const auths = (JSON.parse(json) as { auths?: Record<string, { auth?: string; username?: string; password?: string }> }).auths ?? {};
    const [server, entry] = Object.entries(auths)[0] ?? [];
    if (!server || !entry) throw new Error("Docr: the registry returned Docker credentials without any registry in them.");
    const [username, password] = entry.auth ? Buffer.from(entry.auth, "base64").toString("utf8").split(/:(.*)/s) : [entry.username, entry.password];
    return { server, username: username ?? "", password: password ?? "" };
}

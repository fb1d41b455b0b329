/**
 * A bench-only variant of the program (index.ts): the cluster and the platform once, then `instances`
 * Bank of Sirius applications in namespaces bos-1 … bos-N on the same cluster, each with its own
 * host name. It measures how evaluation cost grows with the number of applications.
 */
import type * as pulumi from "@pulumi/pulumi";
import { Application } from "../../components/application";
import { Platform } from "../../components/platform";
import { loadConfig } from "../../config";
import { platformArgsFromConfig } from "../../program/platformArgs";
import { applicationArgsFromPlatform } from "../../components/application/args";
import { createInfrastructure } from "../../providers";

/**
 * The program function for `instances` applications. The platform and the applications are also
 * pushed onto `keep`, so a caller can measure the live heap while the whole component tree is still
 * referenced (components hold their children, children their outputs).
 */
export function scalingProgram(instances: number, keep: pulumi.Resource[] = []): () => Record<string, pulumi.Input<unknown>> {
    return () => {
        const cfg = loadConfig();
        const cluster = createInfrastructure(cfg);
        if (cluster.registry) throw new Error("bench scaling: use a stack without a registry (the image push is not what is measured)");
        const platform = new Platform("platform", platformArgsFromConfig(cfg, cluster), { providers: [cluster.provider] });
        keep.push(platform);
        const base = cfg.fqdn ?? "bos.example.org";
        const outputs: Record<string, pulumi.Input<unknown>> = {};
        for (let i = 1; i <= instances; i++) {
            const app = new Application(`bank-of-sirius-${i}`, applicationArgsFromPlatform(cfg, platform, `bos-${i}`, `bos-${i}.${base}`), {
                providers: [cluster.provider],
            });
            outputs[`application_url_${i}`] = app.url;
            keep.push(app);
        }
        return outputs;
    };
}

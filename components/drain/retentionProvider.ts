/**
 * The dynamic provider of {@link VolumeRetention}: when retention is on, it switches the platform's
 * volumes to `Retain` on create and update (so `pulumi up` after turning it on protects existing data)
 * and again on delete, which at destroy runs before the stateful components are deleted (so
 * `mara destroy`, which first applies the current setting, keeps the data). Serialised into the state
 * like the drain's provider: no Pulumi resources, no ts-node, no captured secrets.
 */
import type * as pulumi from "@pulumi/pulumi";
import { changedSettings } from "./provider";
import { kubernetesClusterClient } from "./records";
import { retainClaimedVolumes } from "./retention";

/** Settings of the retention step, stored in the state (the kubeconfig encrypted). */
export interface RetentionProps {
    readonly retainVolumes: boolean;
    /** Namespaces whose claims hold the platform's data. */
    readonly namespaces: readonly string[];
    readonly kubeconfig: string;
    readonly context?: string;
}

async function apply(p: RetentionProps): Promise<void> {
    if (!p.retainVolumes) return;
    const log = (m: string) => console.log(`[mara retention] ${m}`);
    const retained = await retainClaimedVolumes(kubernetesClusterClient(p.kubeconfig, p.context), p.namespaces, log);
    log(`${retained.length} volume(s) switched to Retain in ${p.namespaces.join(", ")}`);
}

/** Create, update and delete all apply the setting; a change of setting is an in-place update. */
export const retentionProvider: pulumi.dynamic.ResourceProvider = {
    async create(inputs: RetentionProps) {
        await apply(inputs);
        return { id: "volume-retention", outs: inputs };
    },
    async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
        return { changes: changedSettings(olds, news).length > 0, replaces: [], deleteBeforeReplace: false };
    },
    async update(_id: string, _olds: RetentionProps, news: RetentionProps) {
        await apply(news);
        return { outs: news };
    },
    async delete(_id: string, props: RetentionProps) {
        await apply(props);
    },
};

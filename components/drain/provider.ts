/**
 * The drain's dynamic provider: nothing to do on create or update, the drain on delete. Pulumi
 * serialises these functions (and everything they reach) into the state as the `__provider` input and
 * runs them in its dynamic-provider host, a plain Node.js process with no TypeScript loader; so this
 * module and everything it imports must stay free of Pulumi resources, ts-node and captured secrets.
 */
import type * as pulumi from "@pulumi/pulumi";
import { DrainProps, runDrain } from "./run";

/** The inputs that differ between two sets of drain settings (the serialized provider `__provider` included). */
export function changedSettings(olds: Record<string, unknown>, news: Record<string, unknown>): string[] {
    const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].sort();
    return keys.filter((k) => canonical(olds[k]) !== canonical(news[k]));
}

/** JSON with object keys sorted, so equal values compare equal whatever their key order. */
function canonical(value: unknown): string {
    if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
    if (value && typeof value === "object") {
        const o = value as Record<string, unknown>;
        return `{${Object.keys(o)
            .sort()
            .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
            .join(",")}}`;
    }
    return JSON.stringify(value) ?? "undefined";
}

/**
 * Creating the drain does nothing; its settings matter at delete time, so a change of a setting (or of
 * the drain's code, `__provider`) is an in-place update that stores them, never a replacement (which
 * would run the drain in the middle of an update). Identical settings are no change, so a preview of an
 * unchanged stack shows none.
 */
export const drainProvider: pulumi.dynamic.ResourceProvider = {
    async create(inputs: DrainProps) {
        return { id: `${inputs.clusterName}-drain`, outs: inputs };
    },
    async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
        const changed = changedSettings(olds, news);
        return { changes: changed.length > 0, replaces: [], deleteBeforeReplace: false };
    },
    async update(_id: string, _olds: DrainProps, news: DrainProps) {
        return { outs: news };
    },
    async delete(_id: string, props: DrainProps) {
        await runDrain(props, (message) => console.log(`[mara drain] ${message}`));
    },
};

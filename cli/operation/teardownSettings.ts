/**
 * `mara destroy` applies the current tear-down settings before it destroys. The drain and the volume
 * retention step are dynamic resources: at destroy Pulumi runs their delete with the settings stored by
 * the last `pulumi up`, not with the stack's config. So when `mara:retainVolumes`, `mara:removeCrds` or
 * `mara:drainTimeoutMinutes` changed since then, `mara destroy` first runs `pulumi up --target` on those
 * two resources only, which stores the new settings (and, with retention on, switches the existing
 * volumes to `Retain`). A plain `pulumi destroy` uses the settings of the last `pulumi up`.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import type { MaraConfig } from "../../config";
import { CliIo, EXIT, line } from "../kernel/io";
import { errorText, isCommandError } from "../stack/pulumi";

/** The type part of the URNs of the two dynamic resources whose delete reads tear-down settings. */
export const DRAIN_TYPE = "mara:infra:ClusterDrain$pulumi-nodejs:dynamic:Resource";
export const RETENTION_TYPE = "mara:k8s:VolumeRetention$pulumi-nodejs:dynamic:Resource";

/** One resource of an exported deployment. */
interface StateResource {
    urn: string;
    inputs?: Record<string, unknown>;
}

/** The stored setting that differs from the config: what it is, and the two values. */
export interface SettingChange {
    readonly key: string;
    readonly stored: unknown;
    readonly wanted: unknown;
}

const typeOf = (urn: string) => urn.split("::")[2] ?? "";

/** The settings stored in `resources` that differ from `cfg`, and the URNs to update to apply them. */
export function teardownChanges(resources: readonly StateResource[], cfg: MaraConfig): { changes: SettingChange[]; targets: string[]; missingRetention: boolean } {
    const drain = resources.find((r) => typeOf(r.urn).endsWith(DRAIN_TYPE));
    const retention = resources.find((r) => typeOf(r.urn).endsWith(RETENTION_TYPE));
    const changes: SettingChange[] = [];
    if (drain) {
        const t = cfg.teardown;
        const wanted: Record<string, [string, unknown]> = {
            retainVolumes: ["mara:retainVolumes", t.retainVolumes],
            removeCrds: ["mara:removeCrds", t.removeCrds && cfg.infra.type !== "kubeconfig"],
            timeoutMinutes: ["mara:drainTimeoutMinutes", t.drainTimeoutMinutes],
        };
        for (const [input, [key, value]] of Object.entries(wanted)) {
            if (drain.inputs?.[input] !== value) changes.push({ key, stored: drain.inputs?.[input], wanted: value });
        }
    }
    if (retention && retention.inputs?.retainVolumes !== cfg.teardown.retainVolumes && !changes.some((c) => c.key === "mara:retainVolumes")) {
        changes.push({ key: "mara:retainVolumes", stored: retention.inputs?.retainVolumes, wanted: cfg.teardown.retainVolumes });
    }
    const targets = changes.length ? [drain, retention].filter((r): r is StateResource => r !== undefined).map((r) => r.urn) : [];
    return { changes, targets, missingRetention: !!drain && !retention && cfg.teardown.retainVolumes };
}

/**
 * Stores the config's tear-down settings in the drain and the retention step when they differ.
 *
 * @returns EXIT.ok to go on with destroy, EXIT.failed when the settings could not be applied (nothing was destroyed).
 */
export async function applyTeardownSettings(stack: Stack, cfg: MaraConfig, io: CliIo): Promise<number> {
    let resources: StateResource[];
    try {
        const exported = (await stack.exportStack()) as { deployment?: { resources?: StateResource[] } };
        resources = exported.deployment?.resources ?? [];
    } catch (err) {
        line(io.stderr, `mara: cannot read the state of stack "${stack.name}" to check its tear-down settings: ${errorText(err)}`);
        return EXIT.failed;
    }
    const { changes, targets, missingRetention } = teardownChanges(resources, cfg);
    if (missingRetention) {
        line(
            io.stderr,
            `Warning: stack "${stack.name}" was deployed before volume retention existed, so mara:retainVolumes cannot reach volumes whose claims ` +
                "are deleted during destroy (Elasticsearch's, Grafana's). Run `npx mara up` first to keep them.",
        );
    }
    if (!changes.length) return EXIT.ok;
    const listed = changes.map((c) => `${c.key}: ${JSON.stringify(c.stored)} → ${JSON.stringify(c.wanted)}`).join(", ");
    line(io.stderr, `Tear-down settings changed since the last \`pulumi up\` (${listed}); applying them before destroying:`);
    line(io.stderr, `  pulumi up --target ${targets.join(" --target ")}`);
    try {
        await stack.up({
            target: targets,
            onOutput: (text: string) => void io.stdout.write(text),
            onError: (text: string) => void io.stderr.write(text),
            color: io.colour ? "always" : "never",
        });
    } catch (err) {
        if (!isCommandError(err)) throw err;
        line(io.stderr, `mara: could not apply the tear-down settings (the output is above), so nothing was destroyed. Fix the cause and run \`mara destroy\` again.`);
        return EXIT.failed;
    }
    return EXIT.ok;
}

/**
 * `mara up`'s recovery from an interrupted run, before its preview: reads the state's pending operations and the
 * Helm records of the stack's releases, says what it found, clears the state's pending creates with `pulumi refresh
 * --clear-pending-creates` (the engine's own handling; it also proves, by taking the stack's lock, that no other run
 * is under way), then rolls back or removes the stuck release revisions as Helm allows, and removes the records of a
 * release the interrupted create installed but never recorded (interrupted.ts says which and why). Nothing runs when
 * nothing was interrupted.
 *
 * Bounds: every Kubernetes request within the client's per-request timeout and {@link RECOVERY_BOUND_MS} over all of
 * them; a rollback within {@link ROLLBACK_TIMEOUT_MS}; the refresh is an operation, bounded by Pulumi's own timeouts.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { Stack } from "@pulumi/pulumi/automation";
import { ProcessFailure, runBounded } from "../../../host/boundedProcess";
import type { DoctorTarget } from "../../doctor/target";
import { isKubeApiError, kubeClient, kubeConfigFrom, KubeContextClient } from "../../doctor/kubeClient";
import { CliError, CliIo, EXIT, line } from "../../kernel/io";
import { errorText, isCommandError } from "../../stack/pulumi";
import { helmBinary } from "../../../render/helm";
import { establishCrds } from "./crds";
import { allStale, describePending, describeRepair, describeUnrecorded, locksNamed, ownedReleases, planReleaseRepairs, planUnrecorded, readState, ReleaseRepair, ReleaseRevision, refuseUnrecorded, revisionOf } from "./interrupted";

/** The most the Kubernetes side of the recovery may take. */
export const RECOVERY_BOUND_MS = 60_000;
/** The most one `helm rollback` may take (it applies the target revision's manifests without waiting for them). */
export const ROLLBACK_TIMEOUT_MS = 5 * 60_000;

/** What the recovery needs to reach the cluster: the stack's kubeconfig, or undefined when there is none yet. */
export type ClusterTarget = DoctorTarget | undefined;

/** The command that repairs a stack, in every message that sends the user to it. */
export const repairCommand = (stack: string) => `npx mara up --stack ${stack}`;

/**
 * Finds and repairs what an interrupted run left. Prints nothing when there is nothing to repair.
 *
 * @throws CliError when a repair failed: the run stops before the preview, with what to do.
 */
export async function recoverInterrupted(stack: Stack, target: ClusterTarget, io: CliIo): Promise<void> {
    let exported: unknown;
    try {
        exported = await stack.exportStack();
    } catch (err) {
        throw new CliError(`cannot read the state of stack "${stack.name}" (pulumi stack export): ${errorText(err)}`);
    }
    const state = readState(exported);
    const namespaces = [...new Set([...state.releases.map((r) => r.namespace), ...state.namespaces])];
    const revisions = namespaces.length && target ? await releaseRevisions(namespaces, target) : [];
    const upgrading = state.pending.flatMap((op) => (op.operation === "updating" && op.release ? [op.release] : []));
    const repairs = planReleaseRepairs(ownedReleases(state, revisions), revisions, upgrading);
    const { forget, refused } = planUnrecorded(state, revisions, repairs);
    if (!state.pending.length && !repairs.length) {
        // A run that failed with nothing left under way (a step failed cleanly while the API server restarted) can still
        // have left a CRD unestablished; only then is the cluster's CRD list read, so a healthy stack's run pays nothing.
        if (target && (await lastRunFailed(stack))) await establishCrds(clientFor(target), namespaces, io, state.crds, `The last run on stack "${stack.name}" did not succeed:`);
        return;
    }
    if (refused.length) throw new CliError(refused.map((u) => refuseUnrecorded(u, stack.name)).join("\n"));

    line(io.stderr, `The last run on stack "${stack.name}" was interrupted:`);
    for (const op of state.pending) line(io.stderr, `  - ${describePending(op)}`);
    for (const r of repairs) line(io.stderr, `  - ${describeRepair(r)}`);
    for (const u of forget) line(io.stderr, `  - ${describeUnrecorded(u)}`);
    if (namespaces.length && !target) line(io.stderr, "  - the cluster's Helm releases were not checked: the stack has no kubeconfig yet");

    // The refresh comes first: it takes the stack's lock, so a run still under way (its lock held by a live process or
    // another host) stops the repair before anything of its is touched; a pending record of a live install looks the
    // same as a stuck one.
    const clearing = state.pending.length ? ["--clear-pending-creates"] : [];
    line(io.stderr, `  Checking that no other run holds the stack${clearing.length ? " and clearing the interrupted operations from the state: pulumi refresh --clear-pending-creates" : ": pulumi refresh"}`);
    try {
        await unlockingStale(stack, io, () => refresh(stack, clearing, io));
    } catch (err) {
        if (!isCommandError(err)) throw err;
        throw new CliError(`pulumi refresh failed on stack "${stack.name}" (its output is above), so nothing was repaired: if another run holds the stack's lock, wait for it to end; then run again: ${repairCommand(stack.name)}`);
    }
    if (clearing.length) line(io.stderr, "  ✓ cleared the interrupted operations; the resources they were creating are created again by this run");
    if (repairs.length || forget.length) {
        const client = clientFor(target!);
        for (const r of [...repairs, ...forget]) {
            if (r.kind === "rollback") await rollback(target!, r, io);
            else await removeRevisions(client, r.revisions);
            line(io.stderr, `  ✓ repaired Helm release ${r.release.namespace}/${r.release.name}`);
        }
    }
    // A run cut off by an API server restart can leave CRDs accepted but not established, its Helm installs' and its
    // own (crds.ts).
    if (target) await establishCrds(clientFor(target), namespaces, io, state.crds);
    // The refresh above read a rolled-back release as it was, pending: read it again, or the state would hold the
    // interrupted upgrade's values, and this run would see nothing to upgrade.
    const rolledBack = repairs.filter((r) => r.kind === "rollback").map((r) => state.releaseUrns[`${r.release.namespace}/${r.release.name}`]).filter((u): u is string => !!u);
    if (rolledBack.length) {
        line(io.stderr, "  Reading the rolled-back releases into the state: pulumi refresh --target <urn>");
        try {
            await refresh(stack, rolledBack.flatMap((u) => ["--target", u]), io);
        } catch (err) {
            if (!isCommandError(err)) throw err;
            throw new CliError(`pulumi refresh of the rolled-back releases failed on stack "${stack.name}" (its output is above); run again: ${repairCommand(stack.name)}`);
        }
    }
}

/**
 * Whether the stack's last update did not succeed (failed, or still marked under way because its process was
 * killed), from `pulumi stack history`: a local read on a self-managed backend. Unknown (no history, or it cannot be
 * read) counts as succeeded: this only decides whether to look for CRDs to nudge.
 */
export async function lastRunFailed(stack: Pick<Stack, "history">): Promise<boolean> {
    try {
        const [last] = await stack.history(1, 1, false);
        return last !== undefined && last.result !== "succeeded";
    } catch {
        return false;
    }
}

/** The internal runner of the Automation API's command (cli/stack/pulumi.ts wraps the same one). */
interface CommandRunner {
    run(args: string[], cwd: string, additionalEnv: Record<string, string>, onOutput?: (s: string) => void, onError?: (s: string) => void): Promise<unknown>;
}

/**
 * `pulumi refresh --yes --skip-preview` with `extra`, as the Automation API runs its refresh: its RefreshOptions
 * offer `clearPendingCreates` but not `--import-pending-creates`.
 */
async function refresh(stack: Stack, extra: readonly string[], io: CliIo): Promise<void> {
    const ws = stack.workspace as unknown as { pulumiCommand: CommandRunner; workDir: string; envVars: Record<string, string> };
    const args = ["refresh", "--yes", "--skip-preview", ...extra, "--color", io.colour ? "always" : "never", "--stack", stack.name, "--non-interactive"];
    await ws.pulumiCommand.run(args, ws.workDir, ws.envVars, (t) => void io.stdout.write(t), (t) => void io.stderr.write(t));
}

function clientFor(target: NonNullable<ClusterTarget>): KubeContextClient {
    let kc;
    try {
        kc = kubeConfigFrom(target.kubeconfig, target.context, target.baseDir);
    } catch (e) {
        throw new CliError(`${target.source}: ${(e as Error).message}`, EXIT.usage);
    }
    return kubeClient(kc, { deadline: Date.now() + RECOVERY_BOUND_MS, deadlineName: `the recovery's ${RECOVERY_BOUND_MS / 1000} s bound` });
}

/** Reads Helm's release records in the namespaces of the stack's releases and its own namespaces. */
async function releaseRevisions(namespaces: readonly string[], target: NonNullable<ClusterTarget>): Promise<ReleaseRevision[]> {
    const client = clientFor(target);
    const revisions: ReleaseRevision[] = [];
    for (const ns of namespaces) {
        let list: { items: unknown[] };
        try {
            list = await client.get(`/api/v1/namespaces/${encodeURIComponent(ns)}/secrets?labelSelector=${encodeURIComponent("owner=helm")}`);
        } catch (e) {
            if (isKubeApiError(e)) {
                // A namespace that is gone holds no release; anything else stops the run: an unchecked release may be stuck.
                if (e.status === 404) continue;
                throw new CliError(`cannot read the Helm release records in namespace ${ns} to check for an interrupted run: ${e.message}${e.fix ? `; ${e.fix}` : ""}`, EXIT.unreachable);
            }
            throw e;
        }
        for (const item of list.items) {
            const rev = revisionOf(item);
            if (rev) revisions.push(rev);
        }
    }
    return revisions;
}

/** Deletes a release's records (never deployed, or never recorded), each only if it is still the object that was read (preconditions). */
async function removeRevisions(client: KubeContextClient, revisions: readonly ReleaseRevision[]): Promise<void> {
    for (const rev of revisions) {
        const preconditions = { ...(rev.uid ? { uid: rev.uid } : {}), ...(rev.resourceVersion ? { resourceVersion: rev.resourceVersion } : {}) };
        try {
            await client.delete(`/api/v1/namespaces/${encodeURIComponent(rev.namespace)}/secrets/${encodeURIComponent(rev.secret)}`, { apiVersion: "v1", kind: "DeleteOptions", preconditions });
        } catch (e) {
            if (isKubeApiError(e) && e.status === 404) continue;
            if (isKubeApiError(e) && e.status === 409) {
                throw new CliError(`Helm release ${rev.namespace}/${rev.name} changed while mara was repairing it (its record ${rev.secret} was rewritten): another Helm or Pulumi run is working on it. Wait for it to finish, then run: npx mara up`);
            }
            throw new CliError(`cannot remove the record ${rev.secret} of Helm release ${rev.namespace}/${rev.name}: ${isKubeApiError(e) ? `${e.message}${e.fix ? `; ${e.fix}` : ""}` : (e as Error).message}`);
        }
    }
}

/**
 * `helm rollback <release> <revision>` with the stack's kubeconfig: its own file when it has one; an inline kubeconfig
 * (or the stack's output) only exists as text, so Helm, which reads a file, gets it in a private temporary folder that
 * is removed when the rollback ends, however it ends.
 */
async function rollback(target: NonNullable<ClusterTarget>, r: Extract<ReleaseRepair, { kind: "rollback" }>, io: CliIo): Promise<void> {
    const manual = `helm rollback ${r.release.name} ${r.to.revision} --namespace ${r.release.namespace}`;
    let helm: string;
    try {
        helm = helmBinary(io.env as NodeJS.ProcessEnv).path;
    } catch (e) {
        throw new CliError(`Helm release ${r.release.namespace}/${r.release.name} is stuck in ${r.stuck.status} and rolling it back needs Helm 3: ${(e as Error).message}. Or roll it back yourself (${manual}), then run: npx mara up`);
    }
    const dir = target.file ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), "mara-rollback-"));
    try {
        const file = target.file ?? path.join(dir!, "kubeconfig");
        if (dir) fs.writeFileSync(file, target.kubeconfig, { mode: 0o600 });
        const args = [
            "rollback", r.release.name, String(r.to.revision), "--namespace", r.release.namespace, "--kubeconfig", file,
            ...(target.context ? ["--kube-context", target.context] : []), "--timeout", `${Math.floor(ROLLBACK_TIMEOUT_MS / 1000)}s`,
        ];
        let run;
        try {
            run = await runBounded({ file: helm, args, cwd: target.baseDir, env: { ...(io.env as NodeJS.ProcessEnv) }, deadlineMs: ROLLBACK_TIMEOUT_MS + 30_000, maxStdoutBytes: 1024 * 1024, stderrTailBytes: 16 * 1024 });
        } catch (e) {
            if (!(e instanceof ProcessFailure)) throw e;
            throw new CliError(`${manual} ${e.message}; run it yourself, then: npx mara up`);
        }
        if (run.code !== 0) throw new CliError(`${manual} failed: ${run.stderrTail.trim().split("\n").slice(-3).join(" ")}; fix what it says, then run: npx mara up`);
    } finally {
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
    }
}

/** Whether a process of this host runs: signal 0 checks without sending anything (EPERM: it runs as another user). */
function running(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch (e) {
        return (e as NodeJS.ErrnoException).code === "EPERM";
    }
}

/**
 * Runs a Pulumi operation; when the backend refuses it because of locks that a killed run of this host left (its
 * process gone), removes them with `pulumi cancel` (which, for a self-managed backend, deletes the stack's lock
 * files: pulumi/pulumi pkg/backend/diy/backend.go, CancelCurrentUpdate) and runs it once more. A lock of a
 * running process or of another host is another run's: the failure stands.
 */
export async function unlockingStale<T>(stack: Stack, io: CliIo, run: () => Promise<T>): Promise<T> {
    try {
        return await run();
    } catch (err) {
        if (!isCommandError(err)) throw err;
        const result = (err as unknown as { commandResult?: { stdout?: string; stderr?: string } }).commandResult;
        const locks = locksNamed(`${result?.stderr ?? ""}\n${result?.stdout ?? ""}\n${(err as Error).message}`);
        if (!allStale(locks, os.hostname(), running)) throw err;
        for (const l of locks) line(io.stderr, `The stack's lock from an interrupted run (pid ${l.pid} on ${l.host}, taken at ${l.at}) is stale: that process is gone. Removing it: pulumi cancel`);
        try {
            await stack.cancel();
        } catch (cancelErr) {
            throw new CliError(`cannot remove the stale lock of stack "${stack.name}" (pulumi cancel): ${errorText(cancelErr)}`);
        }
        return run();
    }
}

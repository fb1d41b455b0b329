/**
 * Makes sure Pulumi has somewhere to keep state. A first-time user is usually not logged in to any
 * backend; rather than failing, the wrapper offers a local one in its own directory, so it never mixes
 * with other projects' state in ~/.pulumi.
 */
import * as fs from "fs";
import * as path from "path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { CliError, CliIo, EXIT, line } from "../kernel/io";
import { errorText, runPulumi } from "./pulumi";

/** The local state backend the wrapper offers. */
export const LOCAL_BACKEND = "file://~/.pulumi-mara";

/**
 * Returns the backend URL the CLI is logged in to, logging in to {@link LOCAL_BACKEND} when asked to
 * (`--local`) or when the user accepts it after `pulumi whoami` failed.
 *
 * @param offerLocal - whether a local backend may be offered (not for a stack CI will run: no runner reads it).
 * @throws CliError (pre-flight) when there is no backend and none may be chosen.
 */
export async function ensureBackend(io: CliIo, ws: LocalWorkspace, local: boolean, offerLocal = true): Promise<string> {
    if (local) return loginLocal(io, ws);
    try {
        const who = await ws.whoAmI();
        line(io.stderr, `Pulumi backend: ${who.url ?? "(unknown URL)"} as ${who.user}`);
        return who.url ?? "";
    } catch (err) {
        const why = errorText(err).split("\n")[0];
        if (!offerLocal) {
            throw new CliError(`not logged in to a Pulumi backend (${why}); for a stack CI runs, log in to one a runner can reach: pulumi login (the Pulumi Cloud), or pulumi login s3://<bucket> (or gs://, azblob://)`, EXIT.preflight);
        }
        if (!io.prompter.interactive) {
            throw new CliError(`not logged in to a Pulumi backend (${why}); run \`pulumi login\`, or pass --local to keep state in ${LOCAL_BACKEND}`, EXIT.preflight);
        }
        const ok = await io.prompter.confirm({
            message: `You are not logged in to a Pulumi backend. Keep this project's state on this machine, in ~/.pulumi-mara (pulumi login ${LOCAL_BACKEND})?`,
            default: true,
        });
        if (!ok) throw new CliError("log in to a backend first (`pulumi login`, or `pulumi login <URL>`), then run `npx mara init` again", EXIT.preflight);
        return loginLocal(io, ws);
    }
}

async function loginLocal(io: CliIo, ws: LocalWorkspace): Promise<string> {
    // `pulumi login file://...` wants the directory to exist.
    fs.mkdirSync(path.join(io.env.HOME ?? "", ".pulumi-mara"), { recursive: true, mode: 0o700 });
    await runPulumi(["login", LOCAL_BACKEND], ws.workDir, ws.envVars);
    line(io.stderr, `Logged in to the local backend ${LOCAL_BACKEND}; stacks there encrypt their secrets with a passphrase.`);
    return LOCAL_BACKEND;
}

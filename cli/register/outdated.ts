/**
 * `mara outdated`: every chart and image the program pins, against the newest version in its Helm
 * repository or registry. The work lives in `cli/outdated/` and is loaded when the command runs, so
 * `mara --help` and the other commands do not load it.
 */
import { Command, InvalidArgumentError } from "commander";
import { action, CommandContext } from "../kernel/command";
import type { OutdatedOptions } from "../commands/outdated";

/** Seconds each request may take unless --timeout says otherwise. */
export const DEFAULT_TIMEOUT = 30;

function seconds(value: string): number {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < 1 || n > 600) throw new InvalidArgumentError("give a whole number of seconds from 1 to 600.");
    return n;
}

const HELP = `
Pins: without --stack or --config-file, the program's defaults; with one, that stack's values
(chart versions and repositories, mara:ingressImageName, mara:siriusImageRegistry and mara:siriusImageTag,
mara:logstoreVersion), validated first as \`mara plan\` does.

Sources: each chart's Helm repository index (or OCI registry), each image's registry tag list
(anonymous token, as docker pull gets one). No credentials are used or needed.

Exit status:
  0  no pin has a newer version (pins that cannot be compared, such as digests, aside)
  4  a newer version exists for at least one pin
  5  at least one source could not be checked (the others are still reported; 5 wins over 4)
  1  the stack's configuration is invalid
  2  wrong command line, or a malformed MARA_OUTDATED_ENDPOINTS

Environment:
  MARA_OUTDATED_ENDPOINTS  host=base-url pairs, comma-separated: send a host's requests to a mirror
                           (e.g. docker.io=https://dockerhub-mirror.example.com)
  NODE_USE_ENV_PROXY=1     with HTTPS_PROXY, send the requests through a proxy (Node.js 24)
`;

/** Adds the command to the program. */
export function register(program: Command, ctx: CommandContext): void {
    program
        .command("outdated")
        .description("list each pinned chart and image with the newest version in its repository, and whether a newer major is out")
        .option("-c, --config-file <path>", "check the pins of this Pulumi.<stack>.yaml (ours or MARA's) instead of the defaults")
        .option("-s, --stack <name>", "check the pins of ./Pulumi.<name>.yaml")
        .option("--json", "print JSON for scripts instead of the table")
        .option("--timeout <seconds>", "seconds each request may take", seconds, DEFAULT_TIMEOUT)
        .addHelpText("after", HELP)
        .action(
            // eslint-disable-next-line @typescript-eslint/no-require-imports
            action(ctx, (opts: OutdatedOptions) => (require("../commands/outdated") as typeof import("../commands/outdated")).runOutdated(opts, ctx.io)),
        );
}

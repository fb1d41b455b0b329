/**
 * Starts the real-engine tier's test cluster and keeps it up until Ctrl-C, for trying things by hand:
 *   npm run engine:cluster
 * prints the kubeconfig path and the environment that points the Pulumi CLI at the tier's binaries and a
 * throw-away local backend.
 */
import { ENGINE_BIN, ENGINE_PLUGINS, startCluster } from "./cluster";

async function main(): Promise<void> {
    const cluster = await startCluster();
    console.log(`cluster up: ${cluster.server}`);
    console.log(`export KUBECONFIG=${cluster.kubeconfig}`);
    console.log(`export PATH=${ENGINE_BIN}:${ENGINE_PLUGINS}:$PATH`);
    console.log(`logs in ${cluster.dir}; Ctrl-C stops the cluster`);
    const stop = async () => {
        await cluster.stop();
        process.exit(0);
    };
    // A stop that fails is an unhandled rejection, which ends the process with its error.
    process.on("SIGINT", () => void stop());
    process.on("SIGTERM", () => void stop());
}

main().catch((e) => {
    console.error((e as Error).message);
    process.exit(1);
});

/**
 * The stages kwok plays the kubelet with on the test cluster: kwok's own (test/engine/build.sh), at a pace the test
 * chooses. kwok's stages wait between 1 and 5 s, at random, before each step of a pod's life: created, init
 * containers running, init containers done, ready, complete (kwok's pkg/utils/lifecycle/lifecycle.go, Stage.Delay:
 * the delay plus a random part of the jitter's excess over it). A pod with init containers so took up to 20 s to be
 * ready, and every `helm install --wait` waited for the slowest of its pods, one release after another along the
 * program's dependencies: most of a platform `up` on this tier was kwok sleeping. `brisk` keeps every stage and its
 * order (Pending, Initialized, Running and Ready, Succeeded for a Job's pod, each a separate update that controllers
 * and Helm watch as they would a kubelet's) and waits 0.2 to 0.5 s before each. `kwok` keeps kwok's own pace, for
 * measurements that stand for a cluster where pods take seconds to start (test/engine/bench.ts).
 */
import * as fs from "fs";
import * as path from "path";

/** `brisk` (default): 0.2–0.5 s per step of a pod's life. `kwok`: kwok's own 1–5 s. */
export type PodPace = "brisk" | "kwok";

/** The pod stages whose wait `brisk` shortens; the pod-delete stage already runs after one second (build.sh). */
const PACED = ["pod-create", "pod-init-container-running", "pod-init-container-completed", "pod-ready", "pod-complete"];
const KWOK_DELAY = "durationMilliseconds: 1000";
const KWOK_JITTER = "jitterDurationMilliseconds: 5000";

/**
 * The stages file for `pace`: kwok's own (`stages`) for `kwok`, else a copy in `dir` with the paced stages' waits
 * shortened. Fails when kwok's stages no longer read as expected, rather than silently keeping their pace.
 */
export function kubeletStages(pace: PodPace, stages: string, dir: string): string {
    if (pace === "kwok") return stages;
    const docs = fs.readFileSync(stages, "utf8").split(/^---$/m);
    const paced = docs.map((doc) => {
        const name = /^ {2}name: (\S+)$/m.exec(doc)?.[1];
        if (!name || !PACED.includes(name)) return doc;
        if (doc.split(KWOK_DELAY).length !== 2 || doc.split(KWOK_JITTER).length !== 2) {
            throw new Error(`kwok's ${name} stage no longer waits "${KWOK_DELAY}" with "${KWOK_JITTER}" once; review test/engine/kubeletStages.ts against it`);
        }
        return doc.replace(KWOK_DELAY, "durationMilliseconds: 200").replace(KWOK_JITTER, "jitterDurationMilliseconds: 500");
    });
    const found = paced.filter((d, i) => d !== docs[i]).length;
    if (found !== PACED.length) throw new Error(`${stages} has ${found} of kwok's ${PACED.length} pod stages (${PACED.join(", ")}); review test/engine/kubeletStages.ts`);
    const file = path.join(dir, `kwok-stages-${pace}.yaml`);
    fs.writeFileSync(file, paced.join("---"));
    return file;
}

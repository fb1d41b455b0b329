/** Which PersistentVolumes' volumes the drain may delete: only `Delete` ones a driver provisioned; every other policy keeps the volume. */
import { describe, expect, it } from "vitest";
import { volumeOwnership } from "../../../components/drain/ownership";
import type { VolumeRecord } from "../../../components/drain/records";

const DRIVER = "ebs.csi.aws.com";
const pv = (name: string, reclaimPolicy: string): VolumeRecord => ({ pv: name, reclaimPolicy, driver: DRIVER, handle: `vol-${name}`, provisionedBy: DRIVER });

describe("volumeOwnership", () => {
    it("owns only Delete: Retain, Recycle, and a lower-case 'delete' are kept", () => {
        const { owned, kept } = volumeOwnership([pv("a", "Delete"), pv("b", "Retain"), pv("c", "Recycle"), pv("d", "delete")], DRIVER, false);
        expect(owned.map((o) => o.pv)).toEqual(["a"]);
        expect(kept.map((k) => `${k.id}: ${k.reason}`)).toEqual([
            "vol-b: its PersistentVolume's reclaim policy is Retain",
            "vol-c: its PersistentVolume's reclaim policy is Recycle",
            "vol-d: its PersistentVolume's reclaim policy is delete",
        ]);
    });
});

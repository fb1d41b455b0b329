// Preload (NODE_OPTIONS=--require) of the program's process in bench/lib/pulumiHost.ts: when the process
// exits, writes its time since start, CPU time and peak memory to $MARA_HOST_REPORT, and with
// $MARA_HOST_REPORT_LOADED the modules it loaded. Plain JavaScript, so it costs the same under every loader.
"use strict";
const fs = require("fs");
const path = require("path");
const { performance } = require("perf_hooks");

const file = process.env.MARA_HOST_REPORT;
const dir = process.env.MARA_HOST_REPORT_LOADED;
// Not inherited by the processes the program starts.
delete process.env.NODE_OPTIONS;
if (file) {
    process.on("exit", () => {
        const cpu = process.cpuUsage();
        const report = { ms: performance.now(), cpuMs: (cpu.user + cpu.system) / 1000, maxRssMb: process.resourceUsage().maxRSS / 1024 };
        if (dir) report.loaded = Object.keys(require.cache).map((f) => path.relative(dir, f));
        fs.writeFileSync(file, JSON.stringify(report));
    });
}

// Preload (NODE_OPTIONS=--require) of the program's process in bench/lib/pulumiHost.ts: when the process
// exits, writes its time since start, CPU time and peak memory to $MARA_HOST_REPORT, and with
// $MARA_HOST_REPORT_LOADED the modules it loaded (its files, and Node's built-in modules). Plain JavaScript, so it costs the same under every loader.
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
        if (dir) {
            report.loaded = Object.keys(require.cache).map((f) => path.relative(dir, f));
            // Node's own modules, which require.cache does not hold (http, tls, crypto, ...).
            report.builtins = process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")).map((m) => m.slice("NativeModule ".length));
        }
        fs.writeFileSync(file, JSON.stringify(report));
    });
}

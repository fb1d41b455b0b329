// The packager of the charts that come from Go modules (sources.json). It uses the standard library only, so the
// archives it writes depend on nothing but the pinned modules and this code: the same bytes on every machine.
module mara.local/chartsources

go 1.26

package jobdeck.demo;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

// The Local profile's demo Spark JAR driver (no Spark needed: it only prints what a driver would see).
// Behaves like demo/jobdeck_demo.py: prints the run id (ONEHOUSE_JOB_RUN_ID), the Hudi configurations the
// run was given ($HUDI_CONF_DIR/hudi-defaults.conf) and its arguments, then a progress line every
// --interval seconds for --seconds seconds; --fail-after S fails on purpose (stderr, exit status 2).
// Arguments are `--name value` or `--name=value`, so a run's argument overrides change them.
final class DemoDriver {
    private DemoDriver() {}

    static Map<String, String> options(String[] args) {
        Map<String, String> found = new HashMap<>();
        for (int i = 0; i < args.length; ++i) {
            String arg = args[i];
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                found.put(arg.substring(0, eq), arg.substring(eq + 1));
            } else if (arg.startsWith("--") && i + 1 < args.length && !args[i + 1].startsWith("--")) {
                found.put(arg, args[++i]);
            }
        }
        return found;
    }

    static double number(Map<String, String> opts, String name, double fallback) {
        String text = opts.get(name);
        if (text == null) {
            return fallback;
        }
        try {
            return Math.max(0.0, Double.parseDouble(text));
        } catch (NumberFormatException e) {
            System.out.println("warning: " + name + "=" + text + " is not a number, using " + fallback);
            return fallback;
        }
    }

    static void printHudiConfigs() {
        String dir = System.getenv("HUDI_CONF_DIR");
        if (dir == null) {
            System.out.println("HUDI_CONF_DIR is not set");
            return;
        }
        Path path = Path.of(dir, "hudi-defaults.conf");
        try {
            List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
            lines.removeIf(String::isBlank);
            System.out.println("Hudi configs (" + path + "): " + lines.size());
            for (String line : lines) {
                System.out.println("  " + line);
            }
        } catch (Exception e) {
            System.out.println("cannot read " + path + ": " + e.getMessage());
        }
    }

    static void run(String defaultTask, String unit, String[] args) throws InterruptedException {
        Map<String, String> opts = options(args);
        String task = opts.getOrDefault("--task", defaultTask);
        double seconds = number(opts, "--seconds", 30);
        double interval = Math.max(0.1, number(opts, "--interval", 2));
        Double failAfter = opts.containsKey("--fail-after") ? number(opts, "--fail-after", 0) : null;

        System.out.println("Jobdeck demo driver (Java " + Runtime.version().feature() + "): " + task);
        String runId = System.getenv("ONEHOUSE_JOB_RUN_ID");
        System.out.println("run id: " + (runId == null ? "<not set>" : runId));
        printHudiConfigs();
        System.out.println("arguments: " + String.join(" ", args));
        System.out.flush();

        long start = System.nanoTime();
        long rows = 0;
        while (true) {
            double elapsed = (System.nanoTime() - start) / 1e9;
            if (failAfter != null && elapsed >= failAfter) {
                System.err.printf("%s: ERROR reading input partition date=%s: part-00007.parquet is corrupt "
                        + "(this demo job fails on purpose after %s s)%n", task, opts.getOrDefault("--date", "?"),
                        failAfter);
                System.err.flush();
                System.exit(2);
            }
            if (elapsed >= seconds) {
                break;
            }
            double step = Math.min(interval, seconds - elapsed);
            if (failAfter != null) {
                step = Math.min(step, failAfter - elapsed);
            }
            Thread.sleep((long) Math.ceil(step * 1000));
            elapsed = Math.min((System.nanoTime() - start) / 1e9, seconds);
            rows = (long) (elapsed * 40000);
            int percent = seconds == 0 ? 100 : (int) (100 * elapsed / seconds);
            System.out.printf("%s: %3d%% (%.1f of %s s), %d %s%n", task, percent, elapsed, seconds, rows, unit);
            System.out.flush();
        }
        System.out.printf("%s: done in %s s, %d %s%n", task, seconds, rows, unit);
        System.out.flush();
    }
}

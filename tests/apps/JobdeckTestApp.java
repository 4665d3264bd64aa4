import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

// Stand-in for a Spark JAR driver in the run tests; behaves like tests/apps/jobdeck_test_app.py:
// prints the run id, its spark.* system properties (a SparkConf's), the run's hudi-defaults.conf and its
// arguments, then follows
// --lines N, --interval-ms M, --sleep S, --exit-code C (as `--name value` or `--name=value`).
public final class JobdeckTestApp {
    public static void main(String[] args) throws Exception {
        String runId = System.getenv("ONEHOUSE_JOB_RUN_ID");
        System.out.println("run-id: " + (runId == null ? "<unset>" : runId));
        System.out.println("pid: " + ProcessHandle.current().pid());
        System.getProperties().stringPropertyNames().stream().filter(key -> key.startsWith("spark.")).sorted()
                .forEach(key -> System.out.println("spark-conf: " + key + "=" + System.getProperty(key)));
        String confDir = System.getenv("HUDI_CONF_DIR");
        try {
            List<String> lines = Files.readAllLines(Path.of(confDir == null ? "" : confDir, "hudi-defaults.conf"),
                    StandardCharsets.UTF_8);
            for (String line : lines) {
                System.out.println("hudi-conf: " + line);
            }
        } catch (Exception e) {
            System.out.println("hudi-conf-error: " + e);
        }
        for (String arg : args) {
            System.out.println("arg: " + arg);
        }
        System.out.flush();
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i < args.length; ++i) {
            String arg = args[i];
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                opts.put(arg.substring(0, eq), arg.substring(eq + 1));
            } else if (arg.startsWith("--") && i + 1 < args.length && !args[i + 1].startsWith("--")) {
                opts.put(arg, args[++i]);
            }
        }
        long interval = Long.parseLong(opts.getOrDefault("--interval-ms", "0"));
        int lines = Integer.parseInt(opts.getOrDefault("--lines", "0"));
        for (int i = 1; i <= lines; ++i) {
            System.out.println("line " + i);
            System.out.flush();
            Thread.sleep(interval);
        }
        Thread.sleep((long) (Double.parseDouble(opts.getOrDefault("--sleep", "0")) * 1000));
        System.out.println("done");
        System.out.flush();
        System.exit(Integer.parseInt(opts.getOrDefault("--exit-code", "0")));
    }
}

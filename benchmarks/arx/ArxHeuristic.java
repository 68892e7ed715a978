import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.deidentifier.arx.ARXAnonymizer;
import org.deidentifier.arx.ARXConfiguration;
import org.deidentifier.arx.ARXConfiguration.AnonymizationAlgorithm;
import org.deidentifier.arx.ARXConfiguration.SearchStepSemantics;
import org.deidentifier.arx.ARXLattice.ARXNode;
import org.deidentifier.arx.ARXResult;
import org.deidentifier.arx.AttributeType;
import org.deidentifier.arx.AttributeType.Hierarchy;
import org.deidentifier.arx.Data;
import org.deidentifier.arx.criteria.KAnonymity;
import org.deidentifier.arx.metric.Metric;

/**
 * ARX 3.9.2's best-effort searches, for benchmarks/heuristic_benchmark.py (compiled there with javac against
 * ../shared/arx-bench's jars). Arguments are key=value: data, qi (comma-separated), hier.QI for each, k, supp
 * (a fraction), algorithm (bottom_up = LIGHTNING, top_down, genetic), checks (step limit, counted in checked
 * transformations), seconds (time limit). Every column that is not a QI is insensitive; the metric is Loss.
 * Prints one JSON line: ms, loss, levels, checked.
 */
public class ArxHeuristic {

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new LinkedHashMap<>();
        for (String arg : argv) {
            int eq = arg.indexOf('=');
            args.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        String[] qis = args.get("qi").split(",");
        Data data = Data.create(args.get("data"), StandardCharsets.UTF_8, ';');
        String[] header = data.getHandle().iterator().next();
        for (String column : header) {
            data.getDefinition().setAttributeType(column, AttributeType.INSENSITIVE_ATTRIBUTE);
        }
        for (String qi : qis) {
            data.getDefinition().setAttributeType(qi, Hierarchy.create(args.get("hier." + qi), StandardCharsets.UTF_8, ';'));
        }
        ARXConfiguration config = ARXConfiguration.create();
        config.addPrivacyModel(new KAnonymity(Integer.parseInt(args.get("k"))));
        config.setSuppressionLimit(Double.parseDouble(args.get("supp")));
        config.setQualityModel(Metric.createLossMetric());
        switch (args.getOrDefault("algorithm", "bottom_up")) {
            case "bottom_up": config.setAlgorithm(AnonymizationAlgorithm.BEST_EFFORT_BOTTOM_UP); break;
            case "top_down": config.setAlgorithm(AnonymizationAlgorithm.BEST_EFFORT_TOP_DOWN); break;
            case "genetic": config.setAlgorithm(AnonymizationAlgorithm.BEST_EFFORT_GENETIC); break;
            default: throw new IllegalArgumentException("algorithm: bottom_up, top_down or genetic");
        }
        if (args.containsKey("checks")) {
            config.setHeuristicSearchStepLimit(Integer.parseInt(args.get("checks")), SearchStepSemantics.CHECKS);
        }
        if (args.containsKey("seconds")) {
            config.setHeuristicSearchTimeLimit((int) (Double.parseDouble(args.get("seconds")) * 1000));
        }
        long started = System.nanoTime();
        ARXResult result = new ARXAnonymizer().anonymize(data, config);
        double ms = (System.nanoTime() - started) / 1e6;
        ARXNode optimum = result.getGlobalOptimum();
        StringBuilder out = new StringBuilder("{\"ms\":").append(String.format(Locale.ROOT, "%.1f", ms));
        out.append(",\"checked\":").append(result.getProcessStatistics().getTransformationsChecked());
        if (optimum == null) {
            out.append(",\"loss\":null,\"levels\":null}");
        } else {
            out.append(",\"loss\":").append(Double.parseDouble(optimum.getHighestScore().toString()));
            out.append(",\"levels\":{");
            for (int i = 0; i < qis.length; i++) {
                out.append(i > 0 ? "," : "").append('"').append(qis[i]).append("\":").append(optimum.getGeneralization(qis[i]));
            }
            out.append("}}");
        }
        System.out.println(out);
    }
}

package io.lapse.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The import rules docs/architecture.md states, on the compiled production classes of every module (tests are not
 * imported: they may reach across layers). A class's module is where its class file came from, so that {@code core}'s
 * packages ({@code io.lapse.config}, {@code io.lapse.kafka}, ...) count as {@code core} without a list of them here.
 */
class LayeringTest {

    private static final Set<String> SERVICES = Set.of("ingest", "timer", "puller", "compensator");
    private static final Set<String> PRODUCTION =
            Set.of("core", "http", "store", "ingest", "timer", "puller", "compensator", "runtime", "operations", "app");
    private static final String[] DEV_TOOLS = {
        "io.lapse.devstack..", "io.lapse.simulator..", "io.lapse.bench..", "io.lapse.faults..", "io.lapse.devtools.."
    };

    /** The internal packages of modules, one or two packages below {@code io.lapse}. */
    private static final String[] MODULE_INTERNALS = {"io.lapse.*.internal..", "io.lapse.*.*.internal.."};

    /** A module's jar as the reactor packages it, or its classes directory before it is packaged. */
    private static final Pattern JAR = Pattern.compile("/lapse-([a-z-]+?)-\\d[^/]*\\.jar!/");

    private static final Pattern DIRECTORY = Pattern.compile("/([a-z-]+)/target/classes/");

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.lapse");

    @Test
    void servicesImportOnlyCoreAndStore() {
        classes()
                .that(resideInAnyModule(SERVICES))
                .should(useLapseClassesOnlyOf(module -> Set.of(module, "core", "store")))
                .because("the four services meet only in Kafka and Redis (docs/architecture.md, Modules)")
                .check(CLASSES);
    }

    @Test
    void productionImportsNoDevelopmentTool() {
        noClasses()
                .that(resideInAnyModule(PRODUCTION))
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(DEV_TOOLS)
                .because("lapse.jar holds the services and nothing else (docs/architecture.md, Modules)")
                .check(CLASSES);
    }

    /**
     * A module's {@code internal} packages ({@code io.lapse.store.internal}, {@code io.lapse.store.timers.internal})
     * are its own business. Core's {@code io.lapse.internal} is not one: it is Lapse's shared plumbing, which every
     * module may use.
     */
    @Test
    void internalPackagesStayInTheirModule() {
        classes()
                .that()
                .resideInAnyPackage(MODULE_INTERNALS)
                .should(beUsedOnlyFromTheirOwnModule())
                .because("an internal package is its module's own business (docs/architecture.md, Modules)")
                .allowEmptyShould(false)
                .check(CLASSES);
    }

    /**
     * Inside its module too, an {@code internal} package is the business of the package that holds it:
     * {@code io.lapse.store.timers.internal} is named only under {@code io.lapse.store.timers}, so that the other
     * packages of the store use the timers through their public API.
     */
    @Test
    void internalPackagesServeOnlyThePackageHoldingThem() {
        classes()
                .that()
                .resideInAnyPackage(MODULE_INTERNALS)
                .should(beUsedOnlyFromUnder(LayeringTest::holder))
                .because("a package's internal is how it does what its public API says (docs/architecture.md, Modules)")
                .allowEmptyShould(false)
                .check(CLASSES);
    }

    /**
     * The feature packages of a module depend one way: in the compensator, the service at the root on its packages
     * ({@code scan}, {@code rebuild}, {@code streams}, {@code fold}, {@code mirror}), each on those below it only; in
     * {@code bench} and {@code faults} the same for every benchmark's and the suite's packages, down to the feature
     * packages of {@code bench.peers} and {@code faults.soak} (each {@code package-info} says what it may import).
     */
    @ParameterizedTest
    @ValueSource(strings = {"io.lapse.compensator", "io.lapse.bench", "io.lapse.faults"})
    void packagesFormNoCycle(String root) {
        SlicesRuleDefinition.slices()
                .assignedFrom(packagesUnder(root))
                .should()
                .beFreeOfCycles()
                .check(CLASSES);
    }

    /** The module a class file came from, e.g. {@code store}; empty for a class not imported (a library's). */
    static Optional<String> module(JavaClass type) {
        return type.getSource().flatMap(source -> {
            String uri = source.getUri().toString();
            Matcher jar = JAR.matcher(uri);
            if (jar.find()) {
                return Optional.of(jar.group(1));
            }
            Matcher directory = DIRECTORY.matcher(uri);
            return directory.find() ? Optional.of(directory.group(1)) : Optional.empty();
        });
    }

    private static DescribedPredicate<JavaClass> resideInAnyModule(Set<String> modules) {
        return DescribedPredicate.describe(
                "reside in module "
                        + String.join(", ", modules.stream().sorted().toList()),
                type -> module(type).filter(modules::contains).isPresent());
    }

    private static boolean isLapse(JavaClass type) {
        return type.getPackageName().startsWith("io.lapse");
    }

    /** Every dependency on a Lapse class goes to one of the modules {@code allowed} names for the origin's module. */
    private static ArchCondition<JavaClass> useLapseClassesOnlyOf(Function<String, Set<String>> allowed) {
        return new ArchCondition<>("use Lapse classes only of their own module, core and store") {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                Set<String> may = allowed.apply(module(origin).orElseThrow());
                for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                    JavaClass target = dependency.getTargetClass().getBaseComponentType();
                    if (isLapse(target)) {
                        String to = module(target).orElse("a module the rules do not see");
                        if (!may.contains(to)) {
                            events.add(SimpleConditionEvent.violated(
                                    dependency, dependency.getDescription() + " (module " + to + ")"));
                        }
                    }
                }
            }
        };
    }

    private static ArchCondition<JavaClass> beUsedOnlyFromTheirOwnModule() {
        return new ArchCondition<>("be used only from their own module") {
            @Override
            public void check(JavaClass target, ConditionEvents events) {
                Optional<String> home = module(target);
                for (Dependency dependency : target.getDirectDependenciesToSelf()) {
                    Optional<String> from = module(dependency.getOriginClass());
                    if (!from.equals(home)) {
                        events.add(SimpleConditionEvent.violated(
                                dependency,
                                dependency.getDescription() + " (module " + from.orElse("?") + " into "
                                        + home.orElse("?") + ")"));
                    }
                }
            }
        };
    }

    /** The package that holds a class's internal package: {@code io.lapse.store.timers} for its {@code internal}. */
    static String holder(JavaClass type) {
        String name = type.getPackageName();
        int internal = name.lastIndexOf(".internal");
        return internal < 0 ? name : name.substring(0, internal);
    }

    private static ArchCondition<JavaClass> beUsedOnlyFromUnder(Function<JavaClass, String> holder) {
        return new ArchCondition<>("be used only from under the package holding their internal package") {
            @Override
            public void check(JavaClass target, ConditionEvents events) {
                String home = holder.apply(target);
                for (Dependency dependency : target.getDirectDependenciesToSelf()) {
                    String from = dependency.getOriginClass().getPackageName();
                    if (!from.equals(home) && !from.startsWith(home + ".")) {
                        events.add(SimpleConditionEvent.violated(
                                dependency, dependency.getDescription() + " (" + from + " is not under " + home + ")"));
                    }
                }
            }
        };
    }

    /** One slice per package under {@code root}, the root itself included: a cycle between any two fails. */
    private static SliceAssignment packagesUnder(String root) {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass type) {
                String name = type.getPackageName();
                return name.equals(root) || name.startsWith(root + ".")
                        ? SliceIdentifier.of(name)
                        : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "packages under " + root;
            }
        };
    }
}

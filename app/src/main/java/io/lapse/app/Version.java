package io.lapse.app;

import picocli.CommandLine;

final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = Version.class.getPackage().getImplementationVersion();
        return new String[] {"lapse " + (version == null ? "(development build)" : version)};
    }
}

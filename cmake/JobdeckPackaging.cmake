# Installation and Debian packages. `cmake --install` puts everything under the prefix, except the
# service's configuration file and systemd files, which go where the system looks for them.
# `cpack -G DEB` in the build tree makes two packages (docs/packaging.md):
#   jobdeck   the console: binary, desktop file, icons, AppStream metainfo, jobdeck(1), docs
#   jobdeckd  the service: binary, systemd unit, sysusers.d and tmpfiles.d entries, /etc/jobdeck/jobdeckd.conf,
#             jobdeckd(8), docs; no Qt
include(GNUInstallDirs)

set(JOBDECK_MAINTAINER "Jobdeck team <team@jobdeck.example.org>")
# The AppStream id; the desktop file and the icons are named `jobdeck` (QGuiApplication::setDesktopFileName).
set(JOBDECK_APP_ID org.jobdeck.Jobdeck)
set(packaging ${PROJECT_SOURCE_DIR}/packaging)
set(generated ${PROJECT_BINARY_DIR}/packaging)

# gzip -9n, as Debian wants man pages and changelogs; redone when the source changes.
function(jobdeck_gzip source target)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${source})
  get_filename_component(dir ${target} DIRECTORY)
  file(MAKE_DIRECTORY ${dir})
  execute_process(COMMAND gzip -9nc ${source} OUTPUT_FILE ${target} COMMAND_ERROR_IS_FATAL ANY)
endfunction()

foreach(package jobdeck jobdeckd)
  set(PACKAGE ${package})
  set(VERSION ${PROJECT_VERSION})
  set(MAINTAINER ${JOBDECK_MAINTAINER})
  configure_file(${packaging}/debian/changelog.in ${generated}/${package}/changelog @ONLY)
  jobdeck_gzip(${generated}/${package}/changelog ${generated}/${package}/changelog.gz)
  install(FILES ${packaging}/debian/copyright ${generated}/${package}/changelog.gz
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${package} COMPONENT ${package})
endforeach()
jobdeck_gzip(${packaging}/man/jobdeck.1 ${generated}/man/jobdeck.1.gz)
jobdeck_gzip(${packaging}/man/jobdeckd.8 ${generated}/man/jobdeckd.8.gz)

# The console.
install(FILES ${generated}/man/jobdeck.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT jobdeck)
install(FILES ${PROJECT_SOURCE_DIR}/resources/desktop/jobdeck.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications COMPONENT jobdeck)
install(FILES ${PROJECT_SOURCE_DIR}/resources/desktop/${JOBDECK_APP_ID}.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo COMPONENT jobdeck)
install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/hicolor/scalable/jobdeck.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps COMPONENT jobdeck)
foreach(size 16 24 32 48 64 128 256)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/hicolor/${size}x${size}/jobdeck.png
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps COMPONENT jobdeck)
endforeach()
# The console's Help opens these (README.md links docs/*.md).
file(GLOB doc_pages CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/jobdeck COMPONENT jobdeck)
install(FILES ${doc_pages} DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/jobdeck/docs COMPONENT jobdeck)

# The service. Debian 12 keeps units in /lib/systemd/system; sysusers.d and tmpfiles.d are under /usr/lib.
set(JOBDECK_SYSTEMD_UNIT_DIR /lib/systemd/system CACHE PATH "Where jobdeckd.service is installed")
install(FILES ${generated}/man/jobdeckd.8.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man8 COMPONENT jobdeckd)
install(FILES ${packaging}/jobdeckd.service DESTINATION ${JOBDECK_SYSTEMD_UNIT_DIR} COMPONENT jobdeckd)
install(FILES ${packaging}/jobdeckd.sysusers DESTINATION lib/sysusers.d RENAME jobdeckd.conf COMPONENT jobdeckd)
install(FILES ${packaging}/jobdeckd.tmpfiles DESTINATION lib/tmpfiles.d RENAME jobdeckd.conf COMPONENT jobdeckd)
install(FILES ${packaging}/jobdeckd.conf DESTINATION /etc/jobdeck COMPONENT jobdeckd)
install(FILES ${packaging}/debian/jobdeckd/lintian-overrides DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
        RENAME jobdeckd COMPONENT jobdeckd)
install(FILES docs/service.md docs/runs.md docs/statements.md docs/wire-format.md docs/parameters.md
              docs/packaging.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/jobdeckd COMPONENT jobdeckd)

set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL jobdeck jobdeckd)
set(CPACK_SET_DESTDIR ON) # /etc/jobdeck and the unit directory are absolute
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
    WORLD_READ WORLD_EXECUTE)
set(CPACK_PACKAGE_VENDOR "Jobdeck team")
set(CPACK_PACKAGE_CONTACT ${JOBDECK_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${JOBDECK_MAINTAINER})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_JOBDECK_PACKAGE_NAME jobdeck)
set(CPACK_DEBIAN_JOBDECK_PACKAGE_SECTION admin)
# The Local profile starts the jobdeckd installed beside the console.
set(CPACK_DEBIAN_JOBDECK_PACKAGE_DEPENDS "jobdeckd (= ${PROJECT_VERSION})")
set(CPACK_COMPONENT_JOBDECK_DESCRIPTION
    "admin console for Spark jobs on Apache Hudi lakehouses
Jobdeck is the desktop console (Qt) of the Jobdeck Jobs service. It creates
and edits Spark jobs and clusters with the checks the service applies,
explains every Hudi and Spark parameter, starts runs and follows them live.
Its Local profile starts a private jobdeckd with demo data.")

set(CPACK_DEBIAN_JOBDECKD_PACKAGE_NAME jobdeckd)
set(CPACK_DEBIAN_JOBDECKD_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_JOBDECKD_PACKAGE_DEPENDS "systemd | systemd-sysusers | systemd-standalone-sysusers")
# The local runner starts PYTHON jobs with python3 and JAR jobs with java.
set(CPACK_DEBIAN_JOBDECKD_PACKAGE_RECOMMENDS "python3, default-jre-headless | java-runtime-headless")
set(CPACK_DEBIAN_JOBDECKD_PACKAGE_CONTROL_EXTRA
    ${packaging}/debian/jobdeckd/postinst ${packaging}/debian/jobdeckd/prerm ${packaging}/debian/jobdeckd/postrm
    ${packaging}/debian/jobdeckd/conffiles)
set(CPACK_COMPONENT_JOBDECKD_DESCRIPTION
    "Jobs service for Spark jobs on Apache Hudi lakehouses
jobdeckd serves the Jobdeck statement API over HTTP: jobs, clusters, project
settings, runs, events and driver logs. It keeps its state in SQLite and
launches Spark drivers (spark-submit, or locally with python3 and a Java
runtime) that survive a restart of the service. The package runs it as the
jobdeckd system user under systemd, configured in /etc/jobdeck/jobdeckd.conf.")

include(CPack)

#!/bin/sh
# Builds the two Debian packages of sqlite-bloom from a CMake build directory, with dpkg-deb:
#   libsqlite3-mod-bloom      bloom.so in /usr/lib/MULTIARCH/sqlite3 (cmake component debian_module)
#   libsqlite3-mod-bloom-dev  static library, header and CMake package (component debian_dev)
# Each gets copyright and changelog.gz in /usr/share/doc/NAME, md5sums, and a control file from
# control.module or control.dev here; the module's Depends come from dpkg-shlibdeps.
# Timestamps are SOURCE_DATE_EPOCH, else the last commit's time, else now.
# BUILD_DIR is this machine's build, or another architecture's (ext/packages/platforms), whose
# files STRIP (that architecture's binutils strip) strips.
# Usage: build_deb.sh BUILD_DIR TEMPLATE_DIR OUT_DIR VERSION DEB_ARCH MULTIARCH SOURCE_DIR STRIP
set -eu
build=$1 templates=$2 out=$3 version=$4 arch=$5 multiarch=$6 source=$7 strip=$8
maintainer='The sqlite-bloom developers <maintainers@users.noreply.a-seed-527304a5.example>'

SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$source" log -1 --format=%ct 2>/dev/null || date +%s)}
export SOURCE_DATE_EPOCH  # dpkg-deb stamps the archive members with it
changelog_date=$(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")
staging=$out/debian-staging-$arch
rm -rf "$staging"
mkdir -p "$staging" "$out"
umask 022

# Fills @VERSION@, @ARCH@, @MAINTAINER@, @DATE@, @DEPENDS@ and @INSTALLED_SIZE@ of a template.
fill() {
    sed -e "s#@VERSION@#$version#g" -e "s#@ARCH@#$arch#g" -e "s#@MAINTAINER@#$maintainer#g" \
        -e "s#@DATE@#$changelog_date#g" -e "s#@DEPENDS@#${depends:-}#g" \
        -e "s#@INSTALLED_SIZE@#${installed_size:-}#g" "$1"
}

# Stages cmake component $2 as package $1 and builds it with control template $3.
build_package() {
    name=$1 component=$2 control=$3
    root=$staging/$name
    cmake --install "$build" --component "$component" --prefix "$root/usr" --strip > /dev/null
    # Static archives are not stripped by cmake --install --strip: their debug sections off
    # here, as Debian's dh_strip does.
    find "$root/usr" -name '*.a' -exec "$strip" --strip-debug --remove-section=.comment \
        --remove-section=.note {} +
    find "$root/usr" -name '*.so' -exec "$strip" --remove-section=.comment --remove-section=.note {} +
    doc=$root/usr/share/doc/$name
    mkdir -p "$doc" "$root/DEBIAN"
    cp "$templates/copyright" "$doc/copyright"
    # A native version (no Debian revision), so the changelog is changelog.gz.
    fill "$templates/changelog" | gzip -9n > "$doc/changelog.gz"
    find "$root" -type d -exec chmod 0755 {} +
    find "$root" -type f -exec chmod 0644 {} +
    touch -d "@$SOURCE_DATE_EPOCH" "$doc/copyright"
    (cd "$root" && find usr -type f | LC_ALL=C sort | xargs md5sum) > "$root/DEBIAN/md5sums"
    installed_size=$(du -k -s --exclude=DEBIAN "$root" | cut -f1)
    fill "$control" > "$root/DEBIAN/control"
    dpkg-deb --root-owner-group -Zxz --build "$root" "$out/${name}_${version}_${arch}.deb" > /dev/null
    echo "built $out/${name}_${version}_${arch}.deb"
}

# The module's run-time dependencies, as dpkg-shlibdeps reads them off the ELF file.
build_package_module() {
    root=$staging/libsqlite3-mod-bloom
    cmake --install "$build" --component debian_module --prefix "$root/usr" --strip > /dev/null
    shlibdeps_dir=$staging/shlibdeps
    mkdir -p "$shlibdeps_dir/debian"
    printf 'Source: sqlite-bloom\n\nPackage: libsqlite3-mod-bloom\nArchitecture: any\n' \
        > "$shlibdeps_dir/debian/control"
    depends=$(cd "$shlibdeps_dir" &&
              dpkg-shlibdeps -O "$root/usr/lib/$multiarch/sqlite3/bloom.so" | sed -n 's/^shlibs:Depends=//p')
    [ -n "$depends" ] || { echo "dpkg-shlibdeps found no dependencies for bloom.so"; exit 1; }
    build_package libsqlite3-mod-bloom debian_module "$templates/control.module"
}

build_package_module
depends=''
build_package libsqlite3-mod-bloom-dev debian_dev "$templates/control.dev"
rm -rf "$staging"

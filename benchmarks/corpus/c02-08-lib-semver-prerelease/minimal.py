from semver import compare


def test_should_bump_prerelease():
    version, expected, expected_compare = "3.4.5-rc.9", "3.4.5-rc.10", -1
    assert compare(version, expected) == expected_compare

#pragma once
// Certificates for the TLS tests: a CA, certificates it signs, and a rogue
// self-signed one, made with the openssl command line.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/e2e/process.hpp"

namespace troupe::tests {

struct test_pki {
  std::string dir;  // ends with '/'
  std::string pem(const std::string& name) const { return dir + name + ".pem"; }
  std::string key(const std::string& name) const { return dir + name + ".key"; }
  std::string ca() const { return dir + "ca.pem"; }
  // --tls-cert, --tls-key, --tls-ca for `name`'s certificate.
  std::vector<std::string> flags(const std::string& name) const {
    return {"--tls-cert", pem(name), "--tls-key", key(name), "--tls-ca", ca()};
  }
  // --set cluster.tls.* for `name`'s certificate (a learner or a run).
  std::vector<std::string> config(const std::string& name) const {
    return {"--set", "cluster.tls.certificate=" + pem(name), "--set", "cluster.tls.key=" + key(name),
            "--set", "cluster.tls.ca=" + ca()};
  }
};

// In `dir` (made afresh): ca.pem, NAME.pem and NAME.key for each of `signed`,
// signed by the CA, and rogue.pem / rogue.key, self-signed.
inline test_pki make_test_pki(const std::string& dir, const std::vector<std::string>& signed_names) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  test_pki pki{dir + "/"};
  std::string make = "cd " + pki.dir +
                     " && openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem"
                     " -days 2 -subj /CN=ca";
  for (const std::string& n : signed_names)
    make += " && openssl req -newkey rsa:2048 -nodes -keyout " + n + ".key -out " + n +
            ".csr -subj /CN=" + n + " && openssl x509 -req -in " + n +
            ".csr -CA ca.pem -CAkey ca.key -CAcreateserial -out " + n + ".pem -days 2";
  make += " && openssl req -x509 -newkey rsa:2048 -nodes -keyout rogue.key -out rogue.pem"
          " -days 2 -subj /CN=rogue";
  const auto made = run_command(make + " 2>&1");
  REQUIRE_MESSAGE(made.exit_code == 0, made.output);
  return pki;
}

}  // namespace troupe::tests

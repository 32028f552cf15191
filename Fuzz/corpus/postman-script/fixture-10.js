pm.test('form', function () {
    var echo = pm.response.json();
    pm.expect(echo.method).to.eql('POST');
    pm.expect(echo.form.name).to.eql(['carol']);
    pm.expect(echo.form).to.not.have.property('skipped');
});